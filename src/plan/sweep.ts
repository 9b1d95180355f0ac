/**
 * The sweep: every workersMax of the range × every seed, run by a PointRunner (in this thread or
 * on worker threads), in order of workersMax then seed, up to `concurrency` at once. Early stop:
 * once every seed of a point meets every SLO and so do the next two points, no higher point runs
 * (unless `exhaustive`). Which points are in the result depends only on the points' own results,
 * never on which finished first: the plan is the same whatever the concurrency.
 */
import type { PointResult, PointTask } from './sweep-point.js';

export interface PointRunner {
  run(task: PointTask): Promise<PointResult>;
  close(): Promise<void>;
}

export interface SweepOptions {
  workers: readonly number[];
  seeds: readonly (number | string)[];
  exhaustive: boolean;
  /** Points run at once (the runner's threads). */
  concurrency: number;
  /** Called as each run ends (progress). */
  onRun?: (done: number, planned: number) => void;
}

/** Consecutive points that must meet every SLO before the sweep stops early. */
export const EARLY_STOP_RUN = 3;

export interface SweepOutcome {
  /** Per workersMax run (in order), its runs by seed (in order). */
  points: PointResult[][];
  /** The workersMax after which the sweep stopped early; null: it ran the whole range. */
  stoppedAfter: number | null;
}

export const pointMeets = (runs: readonly PointResult[]) => runs.every((r) => r.slo.every((s) => s.ok));

export function sweep(runner: PointRunner, o: SweepOptions): Promise<SweepOutcome> {
  const nSeeds = o.seeds.length;
  const tasks: PointTask[] = o.workers.flatMap((workersMax) => o.seeds.map((seed) => ({ workersMax, seed })));
  const results: (PointResult | undefined)[] = new Array(tasks.length);
  let limit = tasks.length;
  let stopPoint: number | null = null;
  let next = 0;
  let inFlight = 0;
  let done = 0;
  let decided = 0; // points 0..decided-1 are complete and scanned
  let passing = 0; // consecutive meeting points ending at decided-1

  const scan = () => {
    while (stopPoint === null && decided < o.workers.length) {
      const runs: PointResult[] = [];
      for (let i = decided * nSeeds; i < (decided + 1) * nSeeds; i++) {
        const r = results[i];
        if (r === undefined) return;
        runs.push(r);
      }
      passing = pointMeets(runs) ? passing + 1 : 0;
      decided++;
      if (!o.exhaustive && passing >= EARLY_STOP_RUN && decided < o.workers.length) {
        stopPoint = decided - 1;
        limit = decided * nSeeds;
      }
    }
  };

  return new Promise((resolve, reject) => {
    let failed = false;
    const pump = () => {
      if (failed) return;
      while (inFlight < o.concurrency && next < limit) {
        const i = next++;
        inFlight++;
        runner.run(tasks[i]!).then((r) => {
          inFlight--;
          results[i] = r;
          done++;
          o.onRun?.(done, limit);
          scan();
          pump();
        }, (e: unknown) => {
          failed = true;
          reject(e);
        });
      }
      if (inFlight === 0 && next >= limit) {
        const points: PointResult[][] = [];
        for (let p = 0; p * nSeeds < limit; p++) points.push(results.slice(p * nSeeds, (p + 1) * nSeeds) as PointResult[]);
        resolve({ points, stoppedAfter: stopPoint === null ? null : o.workers[stopPoint]! });
      }
    };
    pump();
  });
}
