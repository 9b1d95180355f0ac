/**
 * The sweep's early stop depends only on the points' results, never on the order runs finish in:
 * a runner whose runs end in a shuffled order (a seeded shuffle per concurrency) gives the same
 * points as one that runs them one by one.
 */
import { describe, expect, test } from 'vitest';
import { sweep, type PointRunner } from '../../src/plan/sweep.js';
import type { PointResult, PointTask } from '../../src/plan/sweep-point.js';
import { RandomSource } from '../../src/lib/random.js';

/** A point meets its one SLO when workersMax ≥ `need` (or, for seed 2, at `flaky` too). */
function result(t: PointTask, need: number, flaky: number): PointResult {
  const ok = t.workersMax >= need || (t.seed === 2 && t.workersMax === flaky);
  return {
    workersMax: t.workersMax,
    knobs: t.knobs,
    workersMin: 0,
    seed: t.seed,
    slo: [{ value: ok ? 1 : 2, ok }],
    figures: {
      jobsAccepted: 1,
      jobsCompleted: 1,
      turnaroundP95Ms: 1,
      queueDelayMeanMs: 1,
      queueDelayP95Ms: 1,
      limitedRate: 0,
      elapsedMs: 1,
      requests: 1,
      jobsFailed: 0,
    },
    bill: { activeSeconds: 0, flexSeconds: 1, workersStarted: 1, secondsByState: {} },
  };
}

/** Runs end in an order drawn from `seed`: each pending run is released at a random later turn. */
function shuffledRunner(seed: string, need: (knobs: PointTask['knobs']) => number): PointRunner {
  const rng = new RandomSource(seed).stream('order');
  const pending: (() => void)[] = [];
  const release = () => {
    if (!pending.length) return;
    const i = Math.floor(rng.next() * pending.length);
    pending.splice(i, 1)[0]!();
  };
  return {
    run: (t) =>
      new Promise((resolve) => {
        pending.push(() => resolve(result(t, need(t.knobs), 3)));
        setTimeout(release, 0);
      }),
    close: async () => undefined,
  };
}

describe('sweep early stop', () => {
  const opts = { workers: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10], seeds: [1, 2, 3], exhaustive: false };
  const need = (k: PointTask['knobs']) => (k.workersMin === 1 ? 4 : 6);
  const shape = (o: Awaited<ReturnType<typeof sweep>>) =>
    o.lines.map((l) => ({ knobs: l.knobs, stoppedAfter: l.stoppedAfter, points: l.points.map((p) => p.map((r) => [r.workersMax, r.seed, r.slo[0]!.ok])) }));

  test('the same points whatever the concurrency and the order runs end in; per grid line', async () => {
    const lines = [{ workersMin: 0 }, { workersMin: 1 }];
    const one = await sweep(shuffledRunner('a', need), { ...opts, lines, concurrency: 1 });
    expect(one.lines.map((l) => l.stoppedAfter)).toEqual([8, 6]);
    expect(one.lines.map((l) => l.points.length)).toEqual([8, 6]);
    for (const [seed, concurrency] of [
      ['b', 2],
      ['c', 3],
      ['d', 7],
      ['e', 30],
    ] as const) {
      expect(shape(await sweep(shuffledRunner(seed, need), { ...opts, lines, concurrency }))).toEqual(shape(one));
    }
  });

  test('a point only one seed meets does not count; --exhaustive runs every point', async () => {
    const o = await sweep(
      shuffledRunner('f', () => 6),
      { ...opts, concurrency: 4 },
    );
    expect(o.lines[0]!.points[2]!.map((r) => r.slo[0]!.ok)).toEqual([false, true, false]);
    expect(o.lines[0]!.stoppedAfter).toBe(8);
    const all = await sweep(
      shuffledRunner('g', () => 6),
      { ...opts, exhaustive: true, concurrency: 4 },
    );
    expect(all.lines[0]!.points).toHaveLength(10);
    expect(all.lines[0]!.stoppedAfter).toBeNull();
  });
});
