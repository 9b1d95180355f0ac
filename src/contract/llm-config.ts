/**
 * The token model of an endpoint that streams like an LLM server (`endpoint.llm`): the time to the
 * first token, the gap before each further token, and how many tokens a job produces. Times take
 * the same forms as `jobDurationMs`; the token count takes them too, its values in tokens, each
 * form such that a draw is at least 1 token.
 */
import { z } from 'zod';
import { durationSchema, meanMs, type DurationSpec } from './duration-spec.js';

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

export const llmSchema = z
  .strictObject({
    ttftMs: durationSchema.meta({
      description: "Time to first token: ms from a job's start to its first token (whole ms or a distribution object).",
      examples: [300, { dist: 'lognormal', medianMs: 250, p95Ms: 900 }],
    }),
    interTokenMs: durationSchema.meta({
      description: 'Gap in ms before each further token, drawn once per gap (whole ms or a distribution object).',
      examples: [25, { dist: 'uniform', minMs: 15, maxMs: 40 }],
    }),
    outputTokens: tokenCountSchema,
  })
  .meta({
    description:
      "Token model: a job runs ttftMs plus one interTokenMs per further token, and streams each token as it is produced (the OpenAI route's server-sent events, /stream items). max_tokens caps the count. Off when unset.",
    examples: [{ ttftMs: 300, interTokenMs: 25, outputTokens: { dist: 'uniform', minMs: 50, maxMs: 400 } }],
  });

export type LlmConfig = z.infer<typeof llmSchema>;

/**
 * The mean execution time (ms) of an endpoint's jobs: `jobDurationMs`'s, or with a token model
 * the mean time to first token plus a mean gap per further token (requests' max_tokens aside).
 */
export function meanJobMs(e: { jobDurationMs: DurationSpec; llm?: LlmConfig | undefined }): number {
  if (!e.llm) return meanMs(e.jobDurationMs);
  const tokens = Math.min(MAX_OUTPUT_TOKENS, Math.max(1, meanMs(e.llm.outputTokens)));
  return meanMs(e.llm.ttftMs) + (tokens - 1) * meanMs(e.llm.interTokenMs);
}
