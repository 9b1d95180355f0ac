/**
 * What `loadlab calibrate` fits from a run's observations (src/calibrate): duration models from
 * samples drawn by the simulator's own samplers, the cold starts it picks, and the idle timeout it
 * reads from worker stops — each recovered within what a user would need for planning.
 */
import { describe, expect, it } from 'vitest';
import { RandomSource } from '../../src/lib/random.js';
import { sampler } from '../../src/sampling/registry.js';
import { fitDuration, ksDistance } from '../../src/calibrate/fit-duration.js';
import { coldStartSamples } from '../../src/calibrate/cold-starts.js';
import { healthRows } from '../../src/calibrate/health-rows.js';
import { fitIdleTimeout } from '../../src/calibrate/idle-timeout.js';
import { HEALTH_COLUMNS, WORKER_COLUMNS } from '../../src/load/record/endpoint-observations.js';
import type { DurationSpec } from '../../src/contract/duration-spec.js';
import type { ObservedEndpoint } from '../../src/report/run-result.js';

function draws(spec: DurationSpec, n: number, seed = 'fits'): number[] {
  const next = sampler(spec, new RandomSource(seed).stream('d'));
  return Array.from({ length: n }, () => next());
}

describe('duration fits', () => {
  it('a lognormal: median and p95 back within 5 %, a small KS distance', () => {
    const f = fitDuration(draws({ dist: 'lognormal', medianMs: 800, p95Ms: 2500 }, 5000))!;
    expect(f.model).toBe('lognormal');
    expect(Math.abs(f.fitted.p50 / 800 - 1)).toBeLessThan(0.05);
    expect(Math.abs(f.fitted.p95 / 2500 - 1)).toBeLessThan(0.05);
    expect(f.ks).toBeLessThan(0.02);
  });

  it('a constant: one value, whatever the count', () => {
    const f = fitDuration(draws(1200, 50))!;
    expect(f).toMatchObject({ model: 'constant', spec: 1200, samples: 50 });
  });

  it('two modes no lognormal fits: the samples themselves (empirical), at most 1 000 of them', () => {
    const xs = [...draws({ dist: 'uniform', minMs: 100, maxMs: 120 }, 3000, 'a'), ...draws({ dist: 'uniform', minMs: 5000, maxMs: 5200 }, 3000, 'b')];
    const f = fitDuration(xs)!;
    expect(f.model).toBe('empirical');
    const spec = f.spec as { dist: string; samplesMs: number[] };
    expect(spec.samplesMs.length).toBe(1000);
    expect(f.ks).toBeLessThan(0.01);
    expect(f.ks).toBeLessThanOrEqual(f.ksLimit);
  });

  it('the KS distance of whole-ms samples against their own rounding is 0, against a shifted CDF not', () => {
    const xs = [1, 2, 3, 4];
    const uniform = (x: number): number => Math.min(1, Math.max(0, (x - 0.5) / 4));
    expect(ksDistance(xs, uniform)).toBeCloseTo(0, 9);
    expect(ksDistance(xs, (x) => uniform(x - 1))).toBeCloseTo(0.25, 9);
  });

  it('no samples: nothing to fit', () => {
    expect(fitDuration([])).toBeUndefined();
  });
});

/** Observations with the given workers ([firstStartMs, firstDelayMs, lastEndMs, jobs]) and /health rows (atMs, inQueue, idle, running, initializing). */
function observed(workers: number[][], health: [number, number, number, number, number][]): ObservedEndpoint {
  return {
    executionMs: { count: 0, samples: [] },
    workers: { columns: [...WORKER_COLUMNS], rows: workers },
    health: { columns: [...HEALTH_COLUMNS], rows: health.map(([t, q, idle, running, init]) => [t, q, running, running, idle, init, 0, 0]) },
  };
}

describe('cold starts', () => {
  it('only a first job that found no worker ready or starting and nothing queued is a cold start', () => {
    const obs = observed(
      [
        [1300, 300, 1500, 1],
        [2400, 400, 2600, 1],
        [3100, 1100, 3300, 1],
        [5000, 0, 5200, 1],
      ],
      [
        [0, 0, 0, 0, 0],
        [1500, 0, 0, 1, 0],
        [1900, 1, 0, 1, 1],
        [2400, 0, 0, 2, 0],
        [4900, 0, 1, 0, 0],
      ],
    );
    // Submitted at 1000 (empty endpoint), 2000 (one starting), 2000 (one queued), 5000 (one idle).
    const c = coldStartSamples(obs, healthRows(obs.health));
    expect(c).toEqual({ samplesMs: [300], workersSeen: 4, fromHealth: true });
  });
});

describe('idle timeout', () => {
  it('worker stops matched to their last job ends: the timeout within the /health period', () => {
    const T = 5000;
    const ends = [1000, 1800, 2600, 9000, 20_000, 20_500];
    const workers = ends.map((e, i) => [i * 100, 50, e, 3]);
    // /health every 500 ms: a worker counts until its last end + T.
    const health: [number, number, number, number, number][] = [];
    for (let t = 0; t <= 30_000; t += 500) health.push([t, 0, ends.filter((e) => t >= e && t < e + T).length, ends.filter((e) => t < e).length, 0]);
    const obs = observed(workers, health);
    const f = fitIdleTimeout(obs, healthRows(obs.health));
    expect(f.matched).toBe(6);
    expect(f.predicted).toBe(6);
    expect(Math.abs(f.idleTimeoutMs! - T)).toBeLessThanOrEqual(250);
    expect(f.resolutionMs).toBe(500);
  });

  it('no worker stopped while /health was read: no estimate', () => {
    const obs = observed(
      [[0, 10, 1000, 1]],
      [
        [0, 0, 0, 1, 0],
        [2000, 0, 1, 0, 0],
      ],
    );
    expect(fitIdleTimeout(obs, healthRows(obs.health))).toMatchObject({ idleTimeoutMs: undefined, matched: 0 });
  });
});
