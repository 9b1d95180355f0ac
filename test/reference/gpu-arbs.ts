/**
 * GPU types for the differential test's random cases: now and then an endpoint lists one to three
 * types in a random priority order (endpoint.gpus), with hosts of little room (hostCapacity 0 to
 * 2, or unlimited), so that workers fall back to a later type, wait throttled for a place (a type
 * with 0 room, all types full) and take a place another worker's stop freed. An engine endpoint
 * may run a different engine on a type (llm.engine.byGpu: a slower decode, a smaller batch, a
 * smaller KV cache), on the same 1/4 ms grid as batching-arbs.ts.
 */
import fc from 'fast-check';
import { opt, pickArb } from './arb-helpers.js';
import type { CaseConfig, Cmd, RefCase } from './case.js';

const GPU_NAMES = ['H100-PRO', 'A100', 'L4'];

/** Multiples of `step` from `min` to `max`. */
const grid = (min: number, max: number, step: number) => fc.integer({ min: Math.round(min / step), max: Math.round(max / step) }).map((k) => k * step);

const roomArb = opt(fc.oneof({ weight: 2, arbitrary: fc.constant(0) }, { weight: 3, arbitrary: fc.integer({ min: 1, max: 2 }) }));

const gpuKeysArb: fc.Arbitrary<Pick<CaseConfig, 'gpus' | 'hostCapacity'>> = fc.shuffledSubarray(GPU_NAMES, { minLength: 1, maxLength: 3 }).chain((gpus) =>
  fc.tuple(...gpus.map(() => roomArb)).map((rooms) => {
    const cap = Object.fromEntries(gpus.flatMap((g, i) => (rooms[i] === undefined ? [] : [[g, rooms[i]!]])));
    return Object.keys(cap).length > 0 ? { gpus, hostCapacity: cap } : { gpus };
  }),
);

const engineOverrideArb = fc.record(
  {
    decodeMs: grid(0.25, 8, 0.25),
    perSequenceMs: fc.oneof(fc.constant(0), grid(0.25, 2, 0.25)),
    maxNumSeqs: fc.integer({ min: 1, max: 4 }),
    kvCacheTokens: fc.integer({ min: 16, max: 96 }),
  },
  { requiredKeys: [] },
);

/** `c` as it is two times in three; else with GPU types (and, for an engine, an engine per type now and then). */
export function sometimesGpus(c: CaseConfig): fc.Arbitrary<CaseConfig> {
  const engine = c.llm !== undefined && 'engine' in c.llm ? c.llm : undefined;
  const withGpus = gpuKeysArb.chain((k) => {
    if (engine === undefined) return fc.constant({ ...c, ...k });
    return fc.tuple(...k.gpus!.map(() => opt(engineOverrideArb))).map((o) => {
      const byGpu = Object.fromEntries(k.gpus!.flatMap((g, i) => (o[i] === undefined ? [] : [[g, o[i]!]])));
      return { ...c, ...k, ...(Object.keys(byGpu).length > 0 ? { llm: { ...engine, engine: { ...engine.engine, byGpu } } } : {}) };
    });
  });
  return fc.oneof({ weight: 2, arbitrary: fc.constant(c) }, { weight: 1, arbitrary: withGpus });
}

/**
 * Hosts turning over: few places (GPU types always listed), workers scaling from 0 or 1 with short
 * idle timeouts and cold starts (some running past initTimeoutMs, holding their place for good),
 * bursts of whole-second jobs (some crash), so workers wait for a place and take freed ones.
 */
export const hostCaseArb: fc.Arbitrary<RefCase> = fc.record({
  config: fc
    .record({
      seed: fc.integer({ min: 1, max: 1_000 }),
      workers: fc.integer({ min: 2, max: 4 }),
      workersMin: fc.integer({ min: 0, max: 1 }),
      workerConcurrency: fc.integer({ min: 1, max: 2 }),
      coldStartMs: fc.oneof(fc.constantFrom(0, 500, 1_000), fc.constant({ dist: 'uniform' as const, minMs: 100, maxMs: 1_900 })),
      idleTimeoutMs: fc.constantFrom(0, 500, 1_000, 2_000),
      initTimeoutMs: fc.constantFrom(1_500, 420_000, 420_000),
      scaler: fc.oneof(
        fc.record({ type: fc.constant('QUEUE_DELAY' as const), value: fc.constantFrom(0.5, 1, 2) }),
        fc.record({ type: fc.constant('REQUEST_COUNT' as const), value: fc.constantFrom(1, 2) }),
      ),
      keys: gpuKeysArb,
    })
    .map(({ keys, ...c }) => ({ ...c, ...keys })),
  cmds: fc.array(
    fc.oneof<fc.MaybeWeightedArbitrary<Cmd>[]>(
      {
        weight: 3,
        arbitrary: fc.record({
          t: fc.constant('run' as const),
          sync: fc.constant(false),
          sim: fc.record({ durationMs: fc.integer({ min: 0, max: 3 }).map((s) => s * 1_000), crash: fc.constantFrom(false, false, false, true) }),
          n: fc.integer({ min: 1, max: 3 }),
        }),
      },
      // Long enough now and then for the queue to drain and workers to time out idle.
      { weight: 4, arbitrary: fc.record({ t: fc.constant('advance' as const), ms: fc.integer({ min: 0, max: 10 }).map((s) => s * 500) }) },
      { weight: 1, arbitrary: fc.record({ t: fc.constant('cancel' as const), pick: pickArb }) },
    ),
    { minLength: 5, maxLength: 30 },
  ),
});

/**
 * The same with a batching engine per GPU type (llm.engine.byGpu on some types): a worker started on
 * another type than a stopped one it replaces runs that type's engine; iterations of a few ms,
 * streams and crashes, advances of tens of ms.
 */
export const engineHostCaseArb: fc.Arbitrary<RefCase> = fc.record({
  config: fc
    .record({
      seed: fc.integer({ min: 1, max: 1_000 }),
      workers: fc.integer({ min: 2, max: 4 }),
      workersMin: fc.integer({ min: 0, max: 1 }),
      workerConcurrency: fc.integer({ min: 1, max: 3 }),
      coldStartMs: fc.constantFrom(0, 10, 50),
      idleTimeoutMs: fc.constantFrom(0, 10, 100),
      scaler: fc.oneof(
        fc.record({ type: fc.constant('QUEUE_DELAY' as const), value: fc.constant(0.5) }),
        fc.record({ type: fc.constant('REQUEST_COUNT' as const), value: fc.constantFrom(1, 2) }),
      ),
      engine: engineOverrideArb,
      decodeMs: grid(0.25, 4, 0.25),
      outputTokens: fc.integer({ min: 1, max: 8 }),
      keys: gpuKeysArb.chain((k) =>
        fc
          .tuple(...k.gpus!.map(() => opt(engineOverrideArb)))
          .map((o) => ({ ...k, byGpu: Object.fromEntries(k.gpus!.flatMap((g, i) => (o[i] === undefined ? [] : [[g, o[i]!]]))) })),
      ),
    })
    .map(({ keys: { byGpu, ...keys }, engine, decodeMs, outputTokens, ...c }) => ({
      ...c,
      ...keys,
      llm: { engine: { ...engine, decodeMs, ...(Object.keys(byGpu).length > 0 ? { byGpu } : {}) }, outputTokens },
    })),
  cmds: fc.array(
    fc.oneof<fc.MaybeWeightedArbitrary<Cmd>[]>(
      { weight: 3, arbitrary: fc.record({ t: fc.constant('openai' as const), stream: fc.boolean(), n: fc.integer({ min: 1, max: 3 }) }) },
      {
        weight: 1,
        arbitrary: fc.record({
          t: fc.constant('run' as const),
          sync: fc.constant(false),
          sim: fc.record({ crash: fc.boolean() }),
          n: fc.integer({ min: 1, max: 3 }),
        }),
      },
      {
        weight: 4,
        arbitrary: fc.record({
          t: fc.constant('advance' as const),
          ms: fc.oneof({ weight: 4, arbitrary: fc.integer({ min: 0, max: 20 }) }, { weight: 1, arbitrary: fc.integer({ min: 0, max: 200 }) }),
        }),
      },
      { weight: 1, arbitrary: fc.record({ t: fc.constant('cancel' as const), pick: pickArb }) },
    ),
    { minLength: 5, maxLength: 30 },
  ),
});
