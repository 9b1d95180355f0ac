/**
 * The `/health` rows of a run (RunResult.observed.health) read by column name: the endpoint's
 * state at an instant, and its worker count.
 */
import { WORKER_STATES } from '../contract/sim-events.js';
import { partitionPoint } from '../lib/partition-point.js';
import type { ObservedEndpoint } from '../report/run-result.js';

export interface HealthRow {
  atMs: number;
  inQueue: number;
  inProgress: number;
  idle: number;
  running: number;
  initializing: number;
  /** Workers in any state. */
  workers: number;
}

export function healthRows(h: ObservedEndpoint['health']): HealthRow[] {
  const col = (name: string): number => h.columns.indexOf(name);
  const at = col('atMs');
  const q = col('inQueue');
  const p = col('inProgress');
  const idle = col('idle');
  const running = col('running');
  const initializing = col('initializing');
  const states = WORKER_STATES.map(col);
  const get = (r: number[], i: number): number => (i >= 0 ? (r[i] ?? 0) : 0);
  return h.rows.map((r) => ({
    atMs: get(r, at),
    inQueue: get(r, q),
    inProgress: get(r, p),
    idle: get(r, idle),
    running: get(r, running),
    initializing: get(r, initializing),
    workers: states.reduce((n, i) => n + get(r, i), 0),
  }));
}

/** The last row read at or before `t` (rows hold their state until the next one); undefined: none yet. */
export function stateAt(rows: readonly HealthRow[], t: number): HealthRow | undefined {
  const n = partitionPoint(rows.length, (i) => rows[i]!.atMs <= t);
  return n === 0 ? undefined : rows[n - 1];
}
