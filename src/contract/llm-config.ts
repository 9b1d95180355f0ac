/**
 * The token model of an endpoint that streams like an LLM server (`endpoint.llm`): the time to the
 * first token, the gap before each further token, and how many tokens a job produces. Times take
 * the same forms as `jobDurationMs`; the token count takes them too, its values in tokens, each
 * form such that a draw is at least 1 token.
 */
import { z } from 'zod';
import { durationSchema, meanMs, type DurationSpec } from './duration-spec.js';
import { LOADLAB_ENGINE_DEFAULTS } from './vllm-defaults.js';

/** The most tokens one job produces (and the largest `max_tokens` a request may ask for). */
export const MAX_OUTPUT_TOKENS = 4096;

const tokens = z.number().int().min(1);
const positive = z.number().min(1);

/**
 * A token count: a whole number of tokens or a distribution object of the duration forms whose
 * every parameter is at least 1 (constant `ms`, uniform `minMs`, exponential `meanMs`, lognormal
 * `medianMs`, each empirical sample). Draws are rounded; one below 1 (the far tail of exponential
 * or lognormal) counts as 1, one above MAX_OUTPUT_TOKENS as that.
 */
export const tokenCountSchema = z
  .union([
    tokens,
    z.strictObject({
      dist: z.literal('constant').meta({ description: 'Distribution kind: always the same token count (a bare integer means the same).' }),
      ms: tokens.meta({ description: 'The token count, at least 1.', examples: [20, 256] }),
    }),
    z
      .strictObject({
        dist: z.literal('uniform').meta({ description: 'Distribution kind: uniform over [minMs, maxMs] tokens, rounded.' }),
        minMs: positive.meta({ description: 'Fewest tokens, at least 1.', examples: [50, 1] }),
        maxMs: positive.meta({ description: 'Most tokens; at least minMs.', examples: [400, 64] }),
      })
      .refine((s) => s.maxMs >= s.minMs, { message: 'maxMs must be >= minMs', path: ['maxMs'] }),
    z.strictObject({
      dist: z.literal('exponential').meta({ description: 'Distribution kind: exponential token counts (a draw under 1 counts as 1).' }),
      meanMs: positive.meta({ description: 'Mean token count, at least 1.', examples: [200, 64] }),
    }),
    z
      .strictObject({
        dist: z.literal('lognormal').meta({ description: 'Distribution kind: lognormal token counts, given by median and p95 (a draw under 1 counts as 1).' }),
        medianMs: positive.meta({ description: 'Median token count, at least 1.', examples: [200, 64] }),
        p95Ms: positive.meta({ description: '95th percentile of the token count; at least medianMs.', examples: [800, 256] }),
      })
      .refine((s) => s.p95Ms >= s.medianMs, { message: 'p95Ms must be >= medianMs', path: ['p95Ms'] }),
    z.strictObject({
      dist: z.literal('empirical').meta({ description: 'Distribution kind: draws uniformly from measured token counts.' }),
      samplesMs: z
        .array(tokens)
        .min(1)
        .meta({ description: 'Measured token counts, each at least 1.', examples: [[120, 250, 310, 900]] }),
    }),
  ])
  .meta({
    description:
      'Tokens a job produces: a whole number >= 1, or a distribution object of the jobDurationMs forms (keys as there, values in tokens, every parameter >= 1). Draws are rounded to whole tokens, at least 1 and at most 4096.',
    examples: [20, { dist: 'uniform', minMs: 50, maxMs: 400 }, { dist: 'lognormal', medianMs: 200, p95Ms: 800 }],
  });

const msFraction = z.number().min(0).max(3_600_000);

/** Tokens a KV cache block holds (vLLM's default block size). */
export const KV_BLOCK_TOKENS = 16;

/**
 * Continuous batching (vLLM's scheduler, one engine per worker): iterations back to back while the
 * worker holds a sequence; each running sequence gets one token per iteration; a job joins at an
 * iteration boundary, its prompt is prefilled in that iteration (chunked over several when longer
 * than the token budget) and its first token comes at that iteration's end. An iteration lasts
 * `decodeMs + perSequenceMs × (sequences − 1) + prefillMsPerToken × prompt tokens prefilled in it`.
 * Times are exact (fractions of a ms kept): an iteration of 5.07 ms is not 5 ms.
 */
const engineFields = {
  decodeMs: z
    .number()
    .positive()
    .max(3_600_000)
    .meta({
      description:
        'ms of an iteration with one sequence decoding: the inter-token latency at one request in flight (vllm bench serve --max-concurrency 1: median_itl_ms).',
      examples: [5.1, 6.5, 25],
    }),
  perSequenceMs: msFraction.default(0).meta({
    description: 'ms an iteration grows per further sequence in it: (ITL at C in flight − ITL at 1) / (C − 1) from a concurrency sweep. Default: 0.',
    examples: [0.065, 0.3],
  }),
  prefillMsPerToken: msFraction.default(0).meta({
    description:
      'ms an iteration grows per prompt token prefilled in it (vLLM prefills a joining prompt in the iteration that produces its first token). Default: 0.',
    examples: [0.02, 0.1],
  }),
  overheadMs: msFraction.default(0).meta({
    description:
      "ms from a job's start on the worker until it can join a batch (request handling, tokenization, the worker's own queue): part of the time to first token. Default: 0.",
    examples: [0, 15],
  }),
  maxNumSeqs: z
    .number()
    .int()
    .min(1)
    .max(65_536)
    .default(LOADLAB_ENGINE_DEFAULTS.maxNumSeqs)
    .meta({
      description:
        "Most sequences in one batch (vLLM --max-num-seqs); a worker's further jobs wait inside it for a place (vLLM queues internally). Default: vLLM's on the scenario's GPU (plan.gpu or --gpu): 1024 on H100, H200 and B200-class GPUs, 256 on others; 256 when no GPU is named.",
      examples: [256, 64],
    }),
  maxNumBatchedTokens: z
    .number()
    .int()
    .min(1)
    .max(1_048_576)
    .default(LOADLAB_ENGINE_DEFAULTS.maxNumBatchedTokens)
    .meta({
      description:
        "Tokens one iteration takes in all (vLLM --max-num-batched-tokens): one per decoding sequence, the rest for prompt chunks; a longer prompt is prefilled over several iterations. Default: vLLM's on the scenario's GPU (plan.gpu or --gpu): 8192 on H100, H200 and B200-class GPUs, 2048 on others; 8192 when no GPU is named.",
      examples: [8192, 2048],
    }),
  kvCacheTokens: z
    .number()
    .int()
    .min(KV_BLOCK_TOKENS)
    .max(1_073_741_824)
    .optional()
    .meta({
      description:
        "Tokens the GPU's KV cache holds (vLLM's startup line \"GPU KV cache size: N tokens\"), in blocks of 16. A sequence holds blocks for its prompt and every token made so far; a waiting job joins only while blocks for its prompt are free; when a running sequence needs a block and none is free, the newest running one is preempted (back to the front of the waiting jobs, its prompt and tokens so far prefilled again when it rejoins). A job's prompt and answer together are capped at it (vLLM's max_model_len): a longer answer is cut (finish_reason length), a prompt that does not fit fails the job. Default: unlimited.",
      examples: [23_296, 417_792],
    }),
  frontEndMs: msFraction.default(0).meta({
    description:
      'CPU ms the API server spends on each request before the engine sees it (tokenizing, validating): a queue in front of the engine, served one request at a time by each API server process, so requests arriving together wait for one another. Default: 0.',
    examples: [2, 5],
  }),
  apiServerCount: z
    .number()
    .int()
    .min(1)
    .max(64)
    .default(1)
    .meta({ description: 'API server processes serving the front end in parallel (vLLM --api-server-count). Default: 1.', examples: [1, 4] }),
};

/** An engine key's schema without its default: an override in `byGpu` sets only what it gives. */
function overrideOf(f: z.ZodType): z.ZodType {
  const inner = f instanceof z.ZodDefault || f instanceof z.ZodOptional ? (f.unwrap() as z.ZodType) : f;
  return inner.optional().meta(z.globalRegistry.get(f) ?? {});
}

/** The engine's figures on one GPU type of the endpoint's gpus, over the engine's own. */
const engineOverrideSchema = z.strictObject(
  Object.fromEntries(Object.entries(engineFields).map(([k, f]) => [k, overrideOf(f)])) as {
    [K in keyof typeof engineFields]: z.ZodOptional<z.ZodType<z.output<(typeof engineFields)[K]>>>;
  },
);

export const engineSchema = z
  .strictObject({
    ...engineFields,
    byGpu: z
      .record(z.string(), engineOverrideSchema)
      .optional()
      .meta({
        description:
          "The engine on other GPU types of the endpoint's gpus, keyed by type: each key given replaces the engine's own on a worker of that type (a slower GPU: a larger decodeMs, a smaller kvCacheTokens). A type not listed runs the engine as given. Default: the same engine on every type.",
        examples: [{ A100: { decodeMs: 9.5, perSequenceMs: 0.12, kvCacheTokens: 200_000 } }],
      }),
    prefixCaching: z
      .boolean()
      .optional()
      .meta({
        description:
          "Automatic prefix caching (vLLM --enable-prefix-caching): each worker keeps the KV cache blocks of the prompts it prefilled, identified by content (a full block of 16 tokens, 64 characters of the prompt's text, after the same text before it), and a prompt whose leading blocks it holds prefills only the rest (at least its last token). Blocks held by running requests are shared; freed ones stay cached until the least recently used are evicted for room (never without kvCacheTokens). Default: false (vLLM V1 turns it on by default; RunPod's vLLM worker template turns it off).",
        examples: [false, true],
      }),
  })
  .meta({
    description:
      'Continuous batching inside each worker (vLLM): an iteration lasts decodeMs + perSequenceMs × (sequences − 1) + prefillMsPerToken × prompt tokens prefilled in it, and gives every running sequence one token. Replaces ttftMs and interTokenMs.',
    examples: [{ decodeMs: 5.1, perSequenceMs: 0.065, prefillMsPerToken: 0.02, overheadMs: 15 }],
  });

export type EngineConfig = z.infer<typeof engineSchema>;
export type EngineConfigInput = z.input<typeof engineSchema>;

/** The engine on GPU type `gpu` (its `byGpu` entry over its own keys), without `byGpu`; the engine itself when it has no entry for it. */
export function engineOn(e: EngineConfig, gpu: string | undefined): EngineConfig {
  const o = gpu === undefined ? undefined : e.byGpu?.[gpu];
  if (o === undefined && e.byGpu === undefined) return e;
  const { byGpu: _, ...own } = e;
  const on: Record<string, unknown> = { ...own };
  for (const [k, v] of Object.entries(o ?? {})) if (v !== undefined) on[k] = v;
  return on as EngineConfig;
}

export const llmSchema = z
  .strictObject({
    ttftMs: durationSchema.optional().meta({
      description:
        "Time to first token: ms from a job's start to its first token (whole ms or a distribution object). Each job alone, as a batch of one; give engine instead to batch. Required without engine.",
      examples: [300, { dist: 'lognormal', medianMs: 250, p95Ms: 900 }],
    }),
    interTokenMs: durationSchema.optional().meta({
      description: 'Gap in ms before each further token, drawn once per gap (whole ms or a distribution object). Required without engine.',
      examples: [25, { dist: 'uniform', minMs: 15, maxMs: 40 }],
    }),
    engine: engineSchema.optional(),
    outputTokens: tokenCountSchema,
  })
  .superRefine((l, ctx) => {
    if (l.engine !== undefined) {
      for (const k of ['ttftMs', 'interTokenMs'] as const)
        if (l[k] !== undefined) ctx.addIssue({ code: 'custom', path: [k], message: `not with engine (the engine's iterations set token times)` });
      return;
    }
    for (const k of ['ttftMs', 'interTokenMs'] as const)
      if (l[k] === undefined) ctx.addIssue({ code: 'custom', path: [k], message: 'required (or give engine: continuous batching)' });
  })
  .meta({
    description:
      "Token model: each job produces outputTokens tokens and streams each as it is produced (the OpenAI route's server-sent events, /stream items); max_tokens caps the count. Either ttftMs and interTokenMs (each job alone) or engine (continuous batching of a worker's jobs). Off when unset.",
    examples: [
      { ttftMs: 300, interTokenMs: 25, outputTokens: { dist: 'uniform', minMs: 50, maxMs: 400 } },
      { engine: { decodeMs: 5.1, perSequenceMs: 0.065, prefillMsPerToken: 0.02 }, outputTokens: 128 },
    ],
  });

export type LlmConfig = z.infer<typeof llmSchema>;

/**
 * The mean execution time (ms) of an endpoint's jobs: `jobDurationMs`'s, or with a token model
 * the mean time to first token plus a mean gap per further token (requests' max_tokens aside).
 * With an engine, a job alone in its batch with an empty prompt: overheadMs plus decodeMs a token
 * (the estimates that use this, dry-run and Erlang C, know nothing of batching).
 */
export function meanJobMs(e: { jobDurationMs: DurationSpec; llm?: LlmConfig | undefined }): number {
  if (!e.llm) return meanMs(e.jobDurationMs);
  const tokens = Math.min(MAX_OUTPUT_TOKENS, Math.max(1, meanMs(e.llm.outputTokens)));
  const g = e.llm.engine;
  if (g) return g.overheadMs + tokens * g.decodeMs;
  return meanMs(e.llm.ttftMs!) + (tokens - 1) * meanMs(e.llm.interTokenMs!);
}
