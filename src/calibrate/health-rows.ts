/**
 * The `/health` rows of a run (RunResult.observed.health) read by column name: the endpoint's
 * state at an instant, and its worker count.
 */
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

const STATES = ['idle', 'running', 'initializing', 'throttled', 'unhealthy'] as const;

export function healthRows(h: ObservedEndpoint['health']): HealthRow[] {
  const col = (name: string): number => h.columns.indexOf(name);
  const at = col('atMs');
  const q = col('inQueue');
  const p = col('inProgress');
  const states = STATES.map(col);
  const get = (r: number[], i: number): number => (i >= 0 ? (r[i] ?? 0) : 0);
  return h.rows.map((r) => ({
    atMs: get(r, at),
    inQueue: get(r, q),
    inProgress: get(r, p),
    idle: get(r, states[0]!),
    running: get(r, states[1]!),
    initializing: get(r, states[2]!),
    workers: states.reduce((n, i) => n + get(r, i), 0),
  }));
}

/** The last row read at or before `t` (rows hold their state until the next one); undefined: none yet. */
export function stateAt(rows: readonly HealthRow[], t: number): HealthRow | undefined {
  let lo = 0;
  let hi = rows.length;
  while (lo < hi) {
    const m = (lo + hi) >> 1;
    if (rows[m]!.atMs <= t) lo = m + 1;
    else hi = m;
  }
  return lo === 0 ? undefined : rows[lo - 1];
}
