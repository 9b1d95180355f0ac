/**
 * Random cases of several jobs per worker (workerConcurrency) and of the batching engine
 * (llm.engine), for the differential test.
 *
 * Jobs per worker: whole-second durations, crashes, cancels and timeouts, so that several jobs of
 * one worker end, crash and leave at the same instant; lowPriority jobs and crash re-queues make
 * start order differ from submission order; both scalers, cold starts and idle timeouts.
 *
 * The engine: iteration times of a few ms, a few to a dozen tokens, prompts of 0 to 15 tokens with
 * small token budgets (chunked prefill) and small batches (jobs wait in the worker), overheads,
 * API server queues, KV caches of one to six blocks (jobs wait for blocks, the newest are preempted),
 * streams, max_tokens, crashes, cancels and execution timeouts of tens of ms, advances of a few ms.
 * Every engine time is a multiple of 1/8 ms (decodeMs, perSequenceMs and overheadMs multiples of
 * 1/4, prefillMsPerToken of 1/8, whole prompt tokens): sums of such numbers are exact in binary
 * floating point, so the model's iteration-by-iteration sums and the core's `t0 + k × d` are the
 * same number, and a whole-ms decision (a run ends at the ceil of its last token) cannot flip on a
 * rounding.
 */
import fc from 'fast-check';
import { opLimit, opt, pickArb, sec } from './arb-helpers.js';
import { sometimesGpus } from './gpu-arbs.js';
import type { CaseConfig, Cmd, RefCase, SimSpec } from './case.js';

const seedArb = fc.integer({ min: 1, max: 1_000 });
const failArb = fc.constantFrom<boolean | string>(true, false, false, 'boom');

// ---------------------------------------------------------------- jobs per worker

const concConfigArb: fc.Arbitrary<CaseConfig> = fc
  .record({
    seed: seedArb,
    workers: fc.oneof({ weight: 4, arbitrary: fc.integer({ min: 1, max: 3 }) }, { weight: 1, arbitrary: fc.integer({ min: 0, max: 5 }) }),
    workersMin: fc.integer({ min: 0, max: 2 }),
    workerConcurrency: fc.integer({ min: 2, max: 4 }),
    coldStartMs: fc.oneof(fc.constantFrom(0, 0, 1_000, 2_000), fc.record({ dist: fc.constant('uniform' as const), minMs: sec(1), maxMs: sec(3) })),
    idleTimeoutMs: fc.constantFrom(0, 1_000, 2_000, 5_000),
    scaler: fc.oneof(
      fc.record({ type: fc.constant('QUEUE_DELAY' as const), value: fc.constantFrom(0.5, 1, 2, 4) }),
      fc.record({ type: fc.constant('REQUEST_COUNT' as const), value: fc.constantFrom(0.5, 1, 2, 3, 4) }),
    ),
    executionTimeoutMs: fc.constantFrom(3_000, 5_000, 600_000),
    retention: fc.record({ runMs: sec(10), runsyncMs: sec(5) }),
    listen: fc.boolean(),
    llm: opt(fc.record({ ttftMs: fc.constantFrom(0, 500, 1_000), interTokenMs: fc.constantFrom(0, 500, 1_000), outputTokens: fc.integer({ min: 1, max: 6 }) })),
  })
  .map((c) => ({ ...c, workersMin: Math.min(c.workersMin, c.workers), coldStartMs: uniformFix(c.coldStartMs) }))
  .chain(sometimesGpus);

const uniformFix = (c: CaseConfig['coldStartMs']) => (typeof c === 'object' ? { ...c, maxMs: c.minMs + c.maxMs } : c);

/** Commands of a jobs-per-worker case; `llm`: no durationMs (the token model sets a job's length). */
function concCmdArb(llm: boolean): fc.Arbitrary<Cmd> {
  const sim: fc.Arbitrary<SimSpec> = llm
    ? fc.record({ fail: failArb, crash: fc.boolean() }, { requiredKeys: [] })
    : fc.record({ durationMs: sec(6), fail: failArb, crash: fc.boolean() }, { requiredKeys: ['durationMs'] });
  const policy = fc.record({ ttl: sec(30).map((ms) => ms + 10_000), executionTimeout: fc.constant(6_000), lowPriority: fc.boolean() }, { requiredKeys: [] });
  return fc.oneof(
    {
      weight: 6,
      arbitrary: fc.record(
        { t: fc.constant('run' as const), sync: fc.boolean(), sim, policy, wait: sec(5).map((ms) => ms + 1_000) },
        { requiredKeys: ['t', 'sync', 'sim'] },
      ),
    },
    {
      weight: 3,
      arbitrary: fc.record(
        { t: fc.constant('run' as const), sync: fc.constant(false), sim, policy, n: fc.integer({ min: 2, max: 10 }) },
        { requiredKeys: ['t', 'sync', 'sim', 'n'] },
      ),
    },
    {
      weight: 2,
      arbitrary: fc.record(
        { t: fc.constant('openai' as const), stream: fc.boolean(), maxTokens: opt(fc.integer({ min: 1, max: 6 })) },
        { requiredKeys: ['t', 'stream'] },
      ),
    },
    { weight: 2, arbitrary: fc.record({ t: fc.constant('status' as const), pick: pickArb }) },
    { weight: 1, arbitrary: fc.record({ t: fc.constant('status-sync' as const), pick: pickArb, wait: sec(3).map((ms) => ms + 1_000) }) },
    { weight: 4, arbitrary: fc.record({ t: fc.constantFrom('cancel' as const, 'retry' as const), pick: pickArb }) },
    { weight: 1, arbitrary: fc.record({ t: fc.constant('retry' as const), pick: pickArb, failed: fc.constant(true) }) },
    { weight: 2, arbitrary: fc.constantFrom({ t: 'purge' as const }, { t: 'health' as const }) },
    {
      weight: 7,
      arbitrary: fc.record({
        t: fc.constant('advance' as const),
        ms: fc.oneof({ weight: 4, arbitrary: sec(4) }, { weight: 1, arbitrary: fc.integer({ min: 0, max: 3_000 }) }),
      }),
    },
  );
}

/**
 * Crashes among jobs per worker alone: bursts of whole-second jobs, half of them crashing, on warm
 * or quickly restarting workers, so that crashes meet jobs a crash sent back and restarted in the
 * same ms out of submission order.
 */
const crashCaseArb: fc.Arbitrary<RefCase> = fc.record({
  config: fc.record({
    seed: seedArb,
    workers: fc.integer({ min: 1, max: 3 }),
    workerConcurrency: fc.integer({ min: 2, max: 4 }),
    coldStartMs: fc.constantFrom(0, 500, 1_000),
  }),
  cmds: fc.array(
    fc.oneof(
      {
        weight: 5,
        arbitrary: fc.record({
          t: fc.constant('run' as const),
          sync: fc.constant(false),
          sim: fc.record({ durationMs: fc.integer({ min: 1, max: 4 }).map((s) => s * 1_000), crash: fc.boolean() }),
          n: fc.integer({ min: 1, max: 4 }),
        }),
      },
      { weight: 1, arbitrary: fc.record({ t: fc.constant('cancel' as const), pick: pickArb }) },
      { weight: 4, arbitrary: fc.record({ t: fc.constant('advance' as const), ms: fc.integer({ min: 0, max: 4 }).map((s) => s * 500) }) },
    ),
    { minLength: 5, maxLength: 30 },
  ),
});

export const concurrencyCaseArb: fc.Arbitrary<RefCase> = fc.oneof(
  {
    weight: 3,
    arbitrary: concConfigArb.chain((config) =>
      fc.record({ config: fc.constant(config), cmds: fc.array(concCmdArb(config.llm !== undefined), { minLength: 10, maxLength: 40 }) }),
    ),
  },
  { weight: 2, arbitrary: crashCaseArb },
);

// ---------------------------------------------------------------- the batching engine

/** Multiples of `step` from `min` to `max`. */
const grid = (min: number, max: number, step: number) => fc.integer({ min: Math.round(min / step), max: Math.round(max / step) }).map((k) => k * step);

const engineArb = fc.record(
  {
    decodeMs: fc.oneof(grid(0.25, 4, 0.25), grid(1, 20, 0.25)),
    perSequenceMs: fc.oneof(fc.constant(0), grid(0.25, 3, 0.25)),
    prefillMsPerToken: fc.oneof(fc.constant(0), grid(0.125, 1, 0.125)),
    overheadMs: fc.oneof(fc.constant(0), grid(0.25, 6, 0.25)),
    maxNumSeqs: fc.oneof(fc.integer({ min: 1, max: 4 }), fc.constant(256)),
    maxNumBatchedTokens: fc.oneof(fc.integer({ min: 1, max: 12 }), fc.constant(8_192)),
    frontEndMs: fc.oneof(fc.constant(0), grid(0.25, 4, 0.25)),
    apiServerCount: fc.integer({ min: 1, max: 3 }),
    // One to six blocks: prompts of up to 15 tokens and answers of up to 16 fill them (admission waits, preemption);
    // up to ten for prompts of whole blocks (prefix caching).
    kvCacheTokens: fc.oneof({ weight: 3, arbitrary: fc.integer({ min: 16, max: 96 }) }, { weight: 1, arbitrary: fc.integer({ min: 97, max: 160 }) }),
    prefixCaching: fc.boolean(),
  },
  { requiredKeys: ['decodeMs'] },
);

const tokensArb = fc.oneof(
  fc.integer({ min: 1, max: 12 }),
  fc
    .record({ dist: fc.constant('uniform' as const), minMs: fc.integer({ min: 1, max: 6 }), maxMs: fc.integer({ min: 0, max: 10 }) })
    .map((u) => ({ ...u, maxMs: u.minMs + u.maxMs })),
);

const engineConfigArb: fc.Arbitrary<CaseConfig> = fc
  .record(
    {
      seed: seedArb,
      workers: fc.oneof({ weight: 3, arbitrary: fc.constant(1) }, { weight: 2, arbitrary: fc.integer({ min: 2, max: 3 }) }),
      workersMin: fc.integer({ min: 0, max: 2 }),
      workerConcurrency: fc.oneof({ weight: 1, arbitrary: fc.constant(1) }, { weight: 5, arbitrary: fc.integer({ min: 2, max: 6 }) }),
      coldStartMs: fc.constantFrom(0, 0, 10, 50),
      idleTimeoutMs: fc.constantFrom(0, 10, 100, 5_000),
      scaler: fc.oneof(
        // 0.5 s: the shortest wait QUEUE_DELAY takes (RunPod's minimum).
        fc.record({ type: fc.constant('QUEUE_DELAY' as const), value: fc.constantFrom(0.5, 4) }),
        fc.record({ type: fc.constant('REQUEST_COUNT' as const), value: fc.constantFrom(1, 4, 8) }),
      ),
      executionTimeoutMs: fc.constantFrom(20, 50, 100, 200, 600_000),
      retention: fc.record({ runMs: fc.constantFrom(0, 50, 1_000), runsyncMs: fc.constantFrom(0, 50, 1_000) }),
      // Now and then a per-operation limit (most of the time none: batches need many requests).
      limits: fc.oneof(
        { weight: 3, arbitrary: fc.constant({}) },
        { weight: 1, arbitrary: fc.record({ operations: fc.record({ openai: opLimit, run: opLimit }, { requiredKeys: [] }) }) },
      ),
      listen: fc.boolean(),
      llm: fc.record({ engine: engineArb, outputTokens: tokensArb }),
    },
    {
      requiredKeys: ['seed', 'workers', 'workersMin', 'workerConcurrency', 'coldStartMs', 'idleTimeoutMs', 'scaler', 'executionTimeoutMs', 'retention', 'llm'],
    },
  )
  .map((c) => ({ ...c, workersMin: Math.min(c.workersMin!, c.workers) }))
  .chain(sometimesGpus);

/**
 * Prompt characters: none, a few tokens, or more than a small token budget; or a text of zero to
 * three 64-character blocks of a or b and a tail of up to 20 characters, so that prompts share
 * leading blocks (prefix caching) or differ from their first.
 */
const blockTextArb = fc
  .record({ blocks: fc.array(fc.constantFrom('a', 'b'), { maxLength: 3 }), tail: fc.integer({ min: 0, max: 20 }) })
  .map(({ blocks, tail }) => blocks.map((c) => c.repeat(64)).join('') + 'x'.repeat(tail));
const promptArb = opt(fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 60 }), blockTextArb));
const capArb = opt(fc.integer({ min: 1, max: 10 }));

/** Commands of a batching case, with prompts drawn from `prompt`. */
const engineCmdArbOf = (prompt: typeof promptArb): fc.Arbitrary<Cmd> =>
  fc.oneof(
    {
      weight: 8,
      arbitrary: fc.record(
        { t: fc.constant('openai' as const), stream: fc.boolean(), maxTokens: capArb, usage: fc.boolean(), prompt, n: fc.integer({ min: 2, max: 5 }) },
        { requiredKeys: ['t', 'stream'] },
      ),
    },
    {
      weight: 3,
      arbitrary: fc.record(
        {
          t: fc.constant('run' as const),
          sync: fc.boolean(),
          sim: fc.record({ fail: failArb, crash: fc.boolean() }, { requiredKeys: [] }),
          policy: fc.record({ lowPriority: fc.boolean() }),
          maxTokens: capArb,
          prompt,
          wait: fc.constantFrom(1_000, 2_000),
        },
        { requiredKeys: ['t', 'sync'] },
      ),
    },
    {
      weight: 2,
      arbitrary: fc.record(
        { t: fc.constant('run' as const), sync: fc.constant(false), n: fc.integer({ min: 2, max: 6 }), maxTokens: capArb, prompt },
        { requiredKeys: ['t', 'sync', 'n'] },
      ),
    },
    { weight: 2, arbitrary: fc.record({ t: fc.constant('status' as const), pick: pickArb }) },
    { weight: 1, arbitrary: fc.record({ t: fc.constant('status-sync' as const), pick: pickArb, wait: fc.constant(1_000) }) },
    { weight: 4, arbitrary: fc.record({ t: fc.constantFrom('cancel' as const, 'retry' as const), pick: pickArb }) },
    { weight: 1, arbitrary: fc.constantFrom({ t: 'purge' as const }, { t: 'health' as const }) },
    {
      weight: 9,
      arbitrary: fc.record({
        t: fc.constant('advance' as const),
        ms: fc.oneof(
          { weight: 8, arbitrary: fc.integer({ min: 0, max: 8 }) },
          { weight: 3, arbitrary: fc.integer({ min: 0, max: 100 }) },
          { weight: 1, arbitrary: fc.constantFrom(1_000, 5_000) },
        ),
      }),
    },
  );

export const batchingCaseArb: fc.Arbitrary<RefCase> = fc.record({
  config: engineConfigArb,
  cmds: fc.array(engineCmdArbOf(promptArb), { minLength: 10, maxLength: 50 }),
});

/**
 * Prefix caching: the same engines with `prefixCaching` and room for prompts of whole blocks (a
 * KV cache of 4 to 12 blocks, or unlimited), prompts mostly of blocks of a and b, so that jobs
 * find their prefixes cached, share blocks while running, and free cached blocks are evicted.
 */
export const prefixCaseArb: fc.Arbitrary<RefCase> = fc.record({
  config: fc.tuple(engineConfigArb, opt(fc.integer({ min: 64, max: 200 }))).map(([c, kv]) => {
    const { kvCacheTokens: _, ...engine } = (c.llm as { engine: Record<string, unknown> }).engine;
    return {
      ...c,
      llm: { ...c.llm!, engine: { ...engine, decodeMs: engine.decodeMs as number, prefixCaching: true, ...(kv !== undefined ? { kvCacheTokens: kv } : {}) } },
    };
  }),
  cmds: fc.array(engineCmdArbOf(opt(fc.oneof({ weight: 1, arbitrary: fc.integer({ min: 1, max: 60 }) }, { weight: 4, arbitrary: blockTextArb }))), {
    minLength: 10,
    maxLength: 50,
  }),
});
