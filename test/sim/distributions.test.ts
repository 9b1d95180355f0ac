/**
 * Duration distributions: every registry entry draws integer ms >= 0 whose mean, median and p95
 * match the spec (10^5 draws), `meanMs` agrees, and bad specs are config errors with field paths.
 */
import { describe, expect, it } from 'vitest';
import { parseSimConfig } from '../../src/contract/endpoint-config.js';
import { meanMs, type DurationSpec } from '../../src/contract/duration-spec.js';
import { distributions, sampler } from '../../src/sampling/registry.js';
import { RandomSource } from '../../src/lib/random.js';

const DRAWS = 100_000;

function draw(spec: DurationSpec, seed = 1): Float64Array {
  const next = sampler(spec, new RandomSource(seed).stream('service'));
  const xs = new Float64Array(DRAWS);
  for (let i = 0; i < DRAWS; i++) xs[i] = next();
  return xs;
}

function summary(xs: Float64Array) {
  const sorted = Float64Array.from(xs).sort();
  const q = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
  let sum = 0;
  for (const x of xs) sum += x;
  return { mean: sum / xs.length, median: q(0.5), p95: q(0.95), min: sorted[0]!, max: sorted[sorted.length - 1]! };
}

function expectWholeMs(xs: Float64Array) {
  for (const x of xs) {
    if (!Number.isInteger(x) || x < 0) throw new Error(`draw ${x} is not a whole ms >= 0`);
  }
}

/** Expected mean, median and p95 (ms) of one spec per registry entry; relative tolerance 2 %. */
const CASES: Record<keyof typeof distributions, { spec: DurationSpec; mean: number; median: number; p95: number }> = {
  constant: { spec: { dist: 'constant', ms: 250 }, mean: 250, median: 250, p95: 250 },
  uniform: { spec: { dist: 'uniform', minMs: 100, maxMs: 300 }, mean: 200, median: 200, p95: 290 },
  // median = mean · ln 2, p95 = mean · ln 20
  exponential: { spec: { dist: 'exponential', meanMs: 1000 }, mean: 1000, median: 693.147, p95: 2995.73 },
  // σ = ln(6000/2000) / 1.6449 = 0.6679; mean = median · e^(σ²/2) = 2500.0
  lognormal: { spec: { dist: 'lognormal', medianMs: 2000, p95Ms: 6000 }, mean: 2500.0, median: 2000, p95: 6000 },
  empirical: { spec: { dist: 'empirical', samplesMs: [5, 10, 10, 400] }, mean: 106.25, median: 10, p95: 400 },
};

describe('duration distributions', () => {
  it('has a case here for every registry entry (a new distribution needs one)', () => {
    expect(Object.keys(CASES).sort()).toEqual(Object.keys(distributions).sort());
  });

  it.each(Object.entries(CASES))('%s: mean, median and p95 within 2 %% over 10^5 draws, whole ms >= 0', (_name, c) => {
    const xs = draw(c.spec);
    expectWholeMs(xs);
    const s = summary(xs);
    expect(Math.abs(s.mean / c.mean - 1)).toBeLessThan(0.02);
    expect(Math.abs(s.median / c.median - 1)).toBeLessThan(0.02);
    expect(Math.abs(s.p95 / c.p95 - 1)).toBeLessThan(0.02);
    expect(Math.abs(meanMs(c.spec) / c.mean - 1)).toBeLessThan(1e-3);
  });

  it('a bare integer is a constant', () => {
    const s = summary(draw(1234));
    expect([s.min, s.max]).toEqual([1234, 1234]);
    expect(meanMs(1234)).toBe(1234);
  });

  it('uniform stays within [minMs, maxMs] and reaches both ends', () => {
    const s = summary(draw({ dist: 'uniform', minMs: 100, maxMs: 300 }));
    expect([s.min, s.max]).toEqual([100, 300]);
  });

  it('empirical draws only its samples, in proportion', () => {
    const xs = draw({ dist: 'empirical', samplesMs: [5, 10, 10, 400] });
    const counts = new Map<number, number>();
    for (const x of xs) counts.set(x, (counts.get(x) ?? 0) + 1);
    expect([...counts.keys()].sort((a, b) => a - b)).toEqual([5, 10, 400]);
    expect(counts.get(5)! / DRAWS).toBeCloseTo(0.25, 1);
    expect(counts.get(10)! / DRAWS).toBeCloseTo(0.5, 1);
    expect(counts.get(400)! / DRAWS).toBeCloseTo(0.25, 1);
  });

  it('a lognormal with p95 = median is a constant', () => {
    const s = summary(draw({ dist: 'lognormal', medianMs: 700, p95Ms: 700 }));
    expect([s.min, s.max]).toEqual([700, 700]);
  });

  it('the same seed and stream give the same draws; another seed does not', () => {
    const spec: DurationSpec = { dist: 'lognormal', medianMs: 2000, p95Ms: 6000 };
    expect(draw(spec, 7).slice(0, 50)).toEqual(draw(spec, 7).slice(0, 50));
    expect(draw(spec, 7).slice(0, 50)).not.toEqual(draw(spec, 8).slice(0, 50));
  });
});

describe('duration specs in config', () => {
  const issuesFor = (jobDurationMs: unknown) => {
    const r = parseSimConfig({ endpoints: [{ id: 'ep', jobDurationMs }] });
    return r.ok ? [] : r.issues;
  };
  const paths = (jobDurationMs: unknown) => issuesFor(jobDurationMs).map((i) => i.path);

  it.each([
    ['p95 below median', { dist: 'lognormal', medianMs: 2000, p95Ms: 1000 }, 'endpoints.0.jobDurationMs.p95Ms'],
    ['uniform max below min', { dist: 'uniform', minMs: 5, maxMs: 1 }, 'endpoints.0.jobDurationMs.maxMs'],
    ['empirical with no samples', { dist: 'empirical', samplesMs: [] }, 'endpoints.0.jobDurationMs.samplesMs'],
    ['empirical with a negative sample', { dist: 'empirical', samplesMs: [1, -2] }, 'endpoints.0.jobDurationMs.samplesMs.1'],
    ['exponential mean of 0', { dist: 'exponential', meanMs: 0 }, 'endpoints.0.jobDurationMs.meanMs'],
    ['an unknown key', { dist: 'constant', ms: 5, extra: 1 }, 'endpoints.0.jobDurationMs.extra'],
    ['an unknown distribution', { dist: 'gamma', meanMs: 3 }, 'endpoints.0.jobDurationMs'],
    ['a negative integer', -1, 'endpoints.0.jobDurationMs'],
    ['a fraction of a ms', 1.5, 'endpoints.0.jobDurationMs'],
    ['a string', '1000', 'endpoints.0.jobDurationMs'],
  ])('rejects %s, naming the field', (_what, spec, path) => {
    expect(paths(spec)).toEqual([path]);
  });

  it('reports every bad duration of a config in one pass', () => {
    const r = parseSimConfig({
      endpoints: [{ id: 'ep', jobDurationMs: { dist: 'exponential', meanMs: -1 }, coldStartMs: { dist: 'uniform', minMs: 9, maxMs: 1 } }],
    });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.issues.map((i) => i.path).sort()).toEqual(['endpoints.0.coldStartMs.maxMs', 'endpoints.0.jobDurationMs.meanMs']);
  });

  it('accepts every documented form', () => {
    for (const c of Object.values(CASES)) expect(issuesFor(c.spec)).toEqual([]);
    expect(issuesFor(0)).toEqual([]);
    expect(issuesFor(86_400_000)).toEqual([]);
  });
});
