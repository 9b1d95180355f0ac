/**
 * The sweep: for each line (a `--grid` combination of endpoint knobs; one line without a grid),
 * every workersMax of the range × every seed, run by a PointRunner (in this thread or on worker
 * threads) in order of line, workersMax, seed, up to `concurrency` at once. Early stop, per line:
 * once every seed of a point meets every SLO and so do the next two points, no higher point of
 * that line runs (unless `exhaustive`). Which points are in the result depends only on the
 * points' own results, never on which finished first: the plan is the same whatever the
 * concurrency.
 */
import { newStopScan, scanPoint, type StopScan } from './early-stop.js';
import type { Knobs } from './grid.js';
import type { PointResult, PointTask } from './sweep-point.js';

export interface PointRunner {
  run(task: PointTask): Promise<PointResult>;
  close(): Promise<void>;
}

export interface SweepOptions {
  workers: readonly number[];
  seeds: readonly (number | string)[];
  /** Knob combinations (default: one line, no knobs). */
  lines?: readonly Knobs[];
  exhaustive: boolean;
  /** Points run at once (the runner's threads). */
  concurrency: number;
  /** Called as each run ends (progress). */
  onRun?: (done: number) => void;
}

export interface SweepLine {
  knobs: Knobs;
  /** Per workersMax run (in order), its runs by seed (in order). */
  points: PointResult[][];
  /** The workersMax after which the line stopped early; null: it ran the whole range. */
  stoppedAfter: number | null;
}

export interface SweepOutcome {
  lines: SweepLine[];
}

export const pointMeets = (runs: readonly PointResult[]) => runs.every((r) => r.slo.every((s) => s.ok));

interface LineState extends StopScan {
  /** Points of the line that may run (shrinks at an early stop). */
  limit: number;
}

export function sweep(runner: PointRunner, o: SweepOptions): Promise<SweepOutcome> {
  const lines = o.lines ?? [{}];
  const nSeeds = o.seeds.length;
  const nPoints = o.workers.length;
  const perLine = nPoints * nSeeds;
  const tasks: PointTask[] = lines.flatMap((knobs) => o.workers.flatMap((workersMax) => o.seeds.map((seed) => ({ workersMax, seed, knobs }))));
  const results: (PointResult | undefined)[] = new Array(tasks.length);
  const state: LineState[] = lines.map(() => ({ limit: nPoints, ...newStopScan() }));
  let next = 0;
  let inFlight = 0;
  let done = 0;

  const scan = (line: number) => {
    const st = state[line]!;
    while (st.stopPoint === null && st.decided < nPoints) {
      const runs: PointResult[] = [];
      for (let i = line * perLine + st.decided * nSeeds, end = i + nSeeds; i < end; i++) {
        const r = results[i];
        if (r === undefined) return;
        runs.push(r);
      }
      scanPoint(st, pointMeets(runs), nPoints, o.exhaustive);
      if (st.stopPoint !== null) st.limit = st.decided;
    }
  };
  const runnable = (i: number) => Math.floor((i % perLine) / nSeeds) < state[Math.floor(i / perLine)]!.limit;

  return new Promise((resolve, reject) => {
    let failed = false;
    const pump = () => {
      if (failed) return;
      while (inFlight < o.concurrency && next < tasks.length) {
        const i = next++;
        if (!runnable(i)) continue;
        inFlight++;
        runner.run(tasks[i]!).then(
          (r) => {
            inFlight--;
            results[i] = r;
            done++;
            o.onRun?.(done);
            scan(Math.floor(i / perLine));
            pump();
          },
          (e: unknown) => {
            failed = true;
            reject(e);
          },
        );
      }
      if (inFlight === 0 && next >= tasks.length) {
        resolve({
          lines: lines.map((knobs, l) => {
            const st = state[l]!;
            const points: PointResult[][] = [];
            for (let p = 0; p < st.limit; p++) points.push(results.slice(l * perLine + p * nSeeds, l * perLine + (p + 1) * nSeeds) as PointResult[]);
            return { knobs, points, stoppedAfter: st.stopPoint === null ? null : o.workers[st.stopPoint]! };
          }),
        });
      }
    };
    pump();
  });
}
