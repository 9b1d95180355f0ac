/**
 * GPU types for the differential test's random cases: now and then an endpoint lists one to three
 * types in a random priority order (endpoint.gpus), with hosts of little room (hostCapacity 0 to
 * 2, or unlimited), so that workers fall back to a later type, wait throttled for a place (a type
 * with 0 room, all types full) and take a place another worker's stop freed. An engine endpoint
 * may run a different engine on a type (llm.engine.byGpu: a slower decode, a smaller batch, a
 * smaller KV cache), on the same 1/4 ms grid as batching-arbs.ts.
 */
import fc from 'fast-check';
import { opt } from './arb-helpers.js';
import type { CaseConfig } from './case.js';

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
