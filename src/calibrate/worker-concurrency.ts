/**
 * Jobs one worker holds at once (`endpoint.workerConcurrency`) from the `/health` rows:
 * `jobs.inProgress` counts jobs held, `workers.running` the workers holding at least one, so a row
 * shows at least ceil(inProgress / running) jobs on some worker. The most of it over the run is a
 * lower bound; it is the endpoint's own figure when jobs waited in the queue while every running
 * worker held exactly that many and none was idle (the workers were full).
 */
import type { HealthRow } from './health-rows.js';

export interface WorkerConcurrencyFit {
  /** Undefined: no row showed a running worker. */
  value?: number;
  /** The queue waited while every running worker held `value` jobs: the workers were full. */
  reached: boolean;
  /** Rows with a running worker. */
  rows: number;
  note?: string;
}

export function fitWorkerConcurrency(rows: readonly HealthRow[]): WorkerConcurrencyFit {
  let most: number | undefined;
  let seen = 0;
  for (const r of rows) {
    if (r.running <= 0) continue;
    seen++;
    const v = Math.ceil(r.inProgress / r.running);
    if (most === undefined || v > most) most = v;
  }
  if (most === undefined || most < 1) {
    return {
      reached: false,
      rows: seen,
      note:
        rows.length === 0
          ? "no /health answers: the scenario's workerConcurrency stays (run with --health-every)"
          : "no /health answer showed a running worker: the scenario's value stays",
    };
  }
  const value = most;
  const reached = rows.some((r) => r.running > 0 && r.inQueue > 0 && r.idle === 0 && r.inProgress === value * r.running);
  return {
    value,
    reached,
    rows: seen,
    ...(reached
      ? {}
      : {
          note: 'the queue never waited with every running worker holding this many: each may take more (a lower bound; calibrated.yaml keeps a higher value of the scenario). Fill the endpoint: more streams in flight than its workers take',
        }),
  };
}
