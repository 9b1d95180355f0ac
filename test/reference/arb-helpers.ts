/** Small arbitraries the case generators share (commands.ts, batching-arbs.ts). */
import fc from 'fast-check';
import { UNKNOWN_PICK } from './case.js';

export const opt = <T>(a: fc.Arbitrary<T>) => fc.option(a, { nil: undefined });
export const pickArb = fc.oneof({ weight: 8, arbitrary: fc.nat(3) }, { weight: 2, arbitrary: fc.nat(40) }, { weight: 1, arbitrary: fc.constant(UNKNOWN_PICK) });

export const opLimit = fc.record(
  { rate: fc.oneof(fc.integer({ min: 1, max: 6 }), fc.constant(null)), concurrency: fc.oneof(fc.integer({ min: 1, max: 3 }), fc.constant(null)) },
  { requiredKeys: [] },
);

/** Whole seconds from 0 to `max` s, in ms: run ends, deadlines and advances meet on them. */
export const sec = (max: number) => fc.integer({ min: 0, max }).map((n) => n * 1000);
