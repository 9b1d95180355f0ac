/**
 * The idle timeout from what a run saw: an idle worker stops `idleTimeoutMs` after its last job
 * ended. The run knows when each worker it used ended its last job (status bodies) and, from the
 * `/health` answers, between which two answers the worker count fell. The estimate is the T that
 * explains the most of those falls with "worker w stopped at its last end + T" while predicting
 * the fewest stops where the count did not fall; it is the middle of that T's range.
 */
import { partitionPoint } from '../lib/partition-point.js';
import type { ObservedEndpoint } from '../report/run-result.js';
import type { HealthRow } from './health-rows.js';

/** Workers looked at: the ones whose last job ended last (the tail of the run is where they stop). */
export const MAX_WORKERS_MATCHED = 100;

export interface IdleTimeoutFit {
  /** ms; undefined: no stop could be matched. */
  idleTimeoutMs: number | undefined;
  /** Stops explained by it, of the workers predicted to stop while `/health` was read. */
  matched: number;
  predicted: number;
  /** Falls of the worker count seen in all. */
  stopsSeen: number;
  /** The median gap between the two answers that bound a stop: the estimate's resolution (ms). */
  resolutionMs: number | undefined;
}

interface Fall {
  fromMs: number;
  toMs: number;
  count: number;
}

export function fitIdleTimeout(obs: ObservedEndpoint, rows: readonly HealthRow[]): IdleTimeoutFit {
  const falls: Fall[] = [];
  for (let i = 1; i < rows.length; i++) {
    const d = rows[i - 1]!.workers - rows[i]!.workers;
    if (d > 0) falls.push({ fromMs: rows[i - 1]!.atMs, toMs: rows[i]!.atMs, count: d });
  }
  const none: IdleTimeoutFit = {
    idleTimeoutMs: undefined,
    matched: 0,
    predicted: 0,
    stopsSeen: falls.reduce((n, f) => n + f.count, 0),
    resolutionMs: undefined,
  };
  const lastEnd = obs.workers.columns.indexOf('lastEndMs');
  const ends = obs.workers.rows
    .map((r) => r[lastEnd]!)
    .sort((a, b) => a - b)
    .slice(-MAX_WORKERS_MATCHED);
  if (falls.length === 0 || ends.length === 0) return none;
  const tail = falls.filter((f) => f.toMs > ends[0]!);
  const firstMs = rows[0]!.atMs;
  const lastMs = rows[rows.length - 1]!.atMs;

  // Candidate Ts: both ends of every (worker, fall) window, just inside it.
  const candidates: number[] = [];
  for (const f of tail) {
    for (const e of ends) {
      if (e >= f.toMs) continue;
      candidates.push(Math.max(0, f.fromMs - e) + 1e-6, f.toMs - e);
    }
  }
  if (candidates.length === 0) return none;
  candidates.sort((a, b) => a - b);

  const score = (t: number): { matched: number; predicted: number } => {
    const hits = new Map<number, number>();
    let predicted = 0;
    for (const e of ends) {
      const at = e + t;
      if (at <= firstMs || at > lastMs) continue;
      predicted++;
      const k = fallAt(falls, at);
      if (k >= 0) hits.set(k, (hits.get(k) ?? 0) + 1);
    }
    let matched = 0;
    for (const [k, n] of hits) matched += Math.min(n, falls[k]!.count);
    return { matched, predicted };
  };

  // Score: stops explained, less stops predicted where the count did not fall.
  let best = -Infinity;
  let runFrom = -1;
  let runTo = -1;
  let bestFit = { matched: 0, predicted: 0 };
  let inRun = false;
  for (let i = 0; i < candidates.length; i++) {
    const s = score(candidates[i]!);
    const v = 2 * s.matched - s.predicted;
    if (v > best) {
      best = v;
      runFrom = runTo = i;
      bestFit = s;
      inRun = true;
    } else if (v === best && inRun) runTo = i;
    else inRun = false;
  }
  if (bestFit.matched === 0) return none;
  const t = (candidates[runFrom]! + candidates[runTo]!) / 2;
  const gaps = falls.map((f) => f.toMs - f.fromMs).sort((a, b) => a - b);
  return {
    idleTimeoutMs: Math.round(t),
    matched: bestFit.matched,
    predicted: bestFit.predicted,
    stopsSeen: none.stopsSeen,
    resolutionMs: Math.round(gaps[gaps.length >> 1]!),
  };
}

/** The fall whose window (fromMs, toMs] holds `at`; -1: none. Falls are in time order. */
function fallAt(falls: readonly Fall[], at: number): number {
  const k = partitionPoint(falls.length, (i) => falls[i]!.toMs < at);
  return k < falls.length && falls[k]!.fromMs < at ? k : -1;
}
