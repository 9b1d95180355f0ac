/** Each arrival process hits its rate within 1 % over a long run, and shapes it as declared. */
import { describe, expect, test } from 'vitest';
import { arrivalGenerator, arrivalSchema, expectedArrivals, type OpenArrivalSpec } from '../../../src/load/arrivals/registry.js';
import { RandomSource } from '../../../src/lib/random.js';

function times(input: unknown, durationMs: number): number[] {
  const spec = arrivalSchema.parse(input) as OpenArrivalSpec;
  const g = arrivalGenerator(spec, { rng: new RandomSource(7).stream('arrivals'), durationMs });
  const out: number[] = [];
  for (let t = g.next(); t !== undefined && t < durationMs; t = g.next()) out.push(t);
  return out;
}

const HOUR = 3600_000;
const cases: [string, unknown, number, number][] = [
  // name, spec, duration, exact expected count
  ['constant', { process: 'constant', ratePerSec: 50 }, HOUR, 180_000],
  ['poisson', { process: 'poisson', ratePerSec: 50 }, HOUR, 180_000],
  ['ramp', { process: 'ramp', fromPerSec: 10, toPerSec: 90 }, HOUR, 180_000],
  ['ramp (poisson)', { process: 'ramp', fromPerSec: 10, toPerSec: 90, poisson: true }, HOUR, 180_000],
  [
    'stages',
    {
      process: 'stages',
      stages: [
        { durationMs: 600_000, targetPerSec: 60 },
        { durationMs: 3_000_000, targetPerSec: 60 },
      ],
    },
    HOUR,
    18_000 + 180_000,
  ],
  ['spike', { process: 'spike', basePerSec: 20, spikePerSec: 200, atMs: 1_800_000, durationMs: 600_000 }, HOUR, 72_000 + 108_000],
  ['diurnal (a day)', { process: 'diurnal', meanPerSec: 5 }, 24 * HOUR, 432_000],
  ['replay (looped)', { process: 'replay', timestampsMs: [0, 100, 200, 300, 400, 500, 600, 700, 800, 900], loop: true }, HOUR, 36_000],
];

describe('arrival rates over a long run', () => {
  for (const [name, spec, d, want] of cases) {
    test(`${name}: ${want} arrivals within 1 %`, () => {
      const got = times(spec, d).length;
      expect(Math.abs(got - want) / want).toBeLessThan(0.01);
      expect(Math.abs(expectedArrivals(arrivalSchema.parse(spec) as OpenArrivalSpec, d, 0) - want) / want).toBeLessThan(0.001);
    });
  }
});

describe('shapes', () => {
  test('constant: evenly spaced from 0', () => {
    expect(times({ process: 'constant', ratePerSec: 4 }, 1000)).toEqual([0, 250, 500, 750]);
  });
  test('times never go backwards', () => {
    for (const [, spec, d] of cases) {
      const t = times(spec, Math.min(d, 600_000));
      expect(t.every((x, i) => i === 0 || x >= t[i - 1]!)).toBe(true);
    }
  });
  test('spike: the burst lands in its window', () => {
    const t = times({ process: 'spike', basePerSec: 1, spikePerSec: 100, atMs: 10_000, durationMs: 5000 }, 30_000);
    expect(t.filter((x) => x >= 10_000 && x < 15_000).length).toBe(500);
    expect(t.filter((x) => x < 10_000).length).toBe(10);
  });
  test('diurnal: the noon hour is busier than the midnight hour by the amplitude', () => {
    const t = times({ process: 'diurnal', meanPerSec: 10, amplitude: 0.5, poisson: false }, 24 * HOUR);
    const inHour = (h: number) => t.filter((x) => x >= h * HOUR && x < (h + 1) * HOUR).length;
    expect(inHour(11.5) / inHour(0)).toBeCloseTo(3, 1);
  });
  test('replay: recorded gaps divided by speed, shifted to start at 0', () => {
    expect(times({ process: 'replay', timestampsMs: [1000, 1500, 3000], speed: 2 }, 10_000)).toEqual([0, 250, 1000]);
  });
  test('a seed gives the same Poisson times; another seed others', () => {
    expect(times({ process: 'poisson', ratePerSec: 5 }, 60_000)).toEqual(times({ process: 'poisson', ratePerSec: 5 }, 60_000));
  });
});
