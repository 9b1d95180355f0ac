/**
 * Shards of a run's arrivals (issue 22): for every arrival process in the registry, N = 1…8 and
 * random seeds, shard I of N holds exactly the arrivals k of the unsharded schedule with
 * k mod N = I, so the shards are disjoint and their union is the unsharded schedule, arrival for
 * arrival (Poisson and replay included).
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { arrivalGenerator, arrivals, arrivalSchema, type ArrivalName, type OpenArrivalSpec } from '../../../src/load/arrivals/registry.js';
import { shardArrivals, type ArrivalShard } from '../../../src/load/arrivals/shard.js';
import { RandomSource } from '../../../src/lib/random.js';

const rate = (max: number) => fc.double({ min: 0, max, noNaN: true });
const positiveRate = (max: number) => fc.double({ min: 0.05, max, noNaN: true });
const ms = (min: number, max: number) => fc.integer({ min, max });

/** A spec of each process (a process added to the registry without one here fails to compile and the coverage test). */
const specs: Record<ArrivalName, fc.Arbitrary<unknown>> = {
  constant: fc.record({ process: fc.constant('constant'), ratePerSec: positiveRate(40) }),
  poisson: fc.record({ process: fc.constant('poisson'), ratePerSec: positiveRate(40) }),
  ramp: fc.record({
    process: fc.constant('ramp'),
    fromPerSec: rate(40),
    toPerSec: rate(40),
    overMs: fc.option(ms(1, 60_000), { nil: undefined }),
    poisson: fc.boolean(),
  }),
  stages: fc.record({
    process: fc.constant('stages'),
    startPerSec: rate(20),
    poisson: fc.boolean(),
    stages: fc.array(fc.record({ durationMs: ms(1, 20_000), targetPerSec: rate(40) }), { minLength: 1, maxLength: 4 }),
  }),
  spike: fc.record({
    process: fc.constant('spike'),
    basePerSec: rate(10),
    spikePerSec: rate(60),
    atMs: ms(0, 30_000),
    durationMs: ms(1, 20_000),
    rampMs: ms(0, 5000),
    poisson: fc.boolean(),
  }),
  diurnal: fc.record({
    process: fc.constant('diurnal'),
    meanPerSec: positiveRate(30),
    amplitude: fc.double({ min: 0, max: 1, noNaN: true }),
    periodMs: ms(1000, 60_000),
    peakAtMs: ms(0, 60_000),
    poisson: fc.boolean(),
  }),
  replay: fc
    .record({
      process: fc.constant('replay'),
      timestampsMs: fc.array(ms(0, 20_000), { minLength: 1, maxLength: 300 }),
      speed: fc.double({ min: 0.25, max: 4, noNaN: true }),
      loop: fc.boolean(),
    })
    .filter((s) => arrivalSchema.safeParse(s).success), // a looped trace must span > 0 ms
};

/** A flow's schedule as the run loop takes it: the flow's own stream of the client seed, cut at durationMs. */
function schedule(spec: OpenArrivalSpec, seed: number, durationMs: number, shard?: ArrivalShard): number[] {
  const g0 = arrivalGenerator(spec, { rng: new RandomSource(`${seed}/clients`).stream('arrivals/f'), durationMs });
  const g = shard ? shardArrivals(g0, shard) : g0;
  const out: number[] = [];
  for (let t = g.next(); t !== undefined && t < durationMs; t = g.next()) out.push(t);
  return out;
}

describe('shards of an arrival schedule', () => {
  test('every process of the registry has a spec here', () => {
    expect(Object.keys(specs).sort()).toEqual(Object.keys(arrivals).sort());
  });

  for (const name of Object.keys(specs) as ArrivalName[]) {
    test(`${name}: the N shards partition the unsharded schedule, round-robin`, () => {
      fc.assert(
        fc.property(specs[name], fc.integer({ min: 1, max: 8 }), fc.integer({ min: 0, max: 2 ** 31 }), ms(1000, 60_000), (raw, n, seed, durationMs) => {
          const spec = arrivalSchema.parse(raw) as OpenArrivalSpec;
          const whole = schedule(spec, seed, durationMs);
          const shards = Array.from({ length: n }, (_, i) => schedule(spec, seed, durationMs, { index: i, count: n }));
          // Shard i holds arrivals i, i + n, i + 2n, … of the whole: disjoint by position.
          shards.forEach((s, i) => expect(s).toEqual(whole.filter((_, k) => k % n === i)));
          // Their multiset union is the whole schedule, exactly.
          expect(shards.flat().sort((a, b) => a - b)).toEqual(whole);
        }),
        { numRuns: 40, seed: 22 },
      );
    });
  }

  test('a looped replay against a short run: each shard ends (bounded), and shard 1 of 3 is every third arrival from the second', () => {
    const spec = arrivalSchema.parse({ process: 'replay', timestampsMs: [0, 10, 20], loop: true }) as OpenArrivalSpec;
    expect(schedule(spec, 1, 100, { index: 1, count: 3 })).toEqual([10, 40, 70]);
  });

  test('a bad shard is refused', () => {
    const g = { next: () => 0 };
    expect(() => shardArrivals(g, { index: 3, count: 3 })).toThrow(/0 <= index < count/);
    expect(() => shardArrivals(g, { index: 0, count: 0 })).toThrow(RangeError);
  });
});
