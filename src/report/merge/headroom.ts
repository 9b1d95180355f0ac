/**
 * Headroom of the merged run, from the merged windows and the shards' own peaks. The limits
 * (rate, concurrency, queue throttle, workersMax) are the scenario's, equal in every shard.
 *
 * - `peakPer10s`: the larger of the shards' peaks and the most requests in one aligned window of
 *   the merged per-window counts (scaled to 10 s when windows are longer). The true peak of the
 *   merged traffic in a sliding window can be higher: a lower bound.
 * - `peakInFlight`: the shards' peaks added: an upper bound (their peaks need not coincide).
 * - `peakQueueDepth`, `peakRunningWorkers`: the highest any shard saw of the one endpoint.
 */
import type { Headroom, HeadroomRow, Windows } from '../run-result.js';
import { keysOf } from './counters.js';

const TEN_S = 10_000;

function maxOrNull(list: readonly (number | null)[]): number | null {
  const seen = list.filter((v): v is number => v !== null);
  return seen.length ? Math.max(...seen) : null;
}

/** The most requests of `op` in one merged window, per 10 s. */
function alignedPeak(w: Windows, op: string): number {
  const counts = w.requests?.[op] ?? [];
  const peak = Math.max(0, ...counts);
  return w.windowMs <= TEN_S ? peak : Math.round((peak * TEN_S) / w.windowMs);
}

/** `list` in shard order; `merged` the merged windows. */
export function mergeHeadroom(list: readonly Headroom[], merged: Windows): Headroom {
  const operations: HeadroomRow[] = keysOf(list.map((h) => Object.fromEntries(h.operations.map((o) => [o.operation, o])))).map((op) => {
    const rows = list.flatMap((h) => h.operations.filter((o) => o.operation === op));
    return {
      operation: op,
      peakPer10s: Math.max(alignedPeak(merged, op), ...rows.map((o) => o.peakPer10s)),
      ratePer10s: rows[0]!.ratePer10s,
      peakInFlight: rows.reduce((n, o) => n + o.peakInFlight, 0),
      concurrency: rows[0]!.concurrency,
    };
  });
  return {
    operations,
    peakQueueDepth: maxOrNull(list.map((h) => h.peakQueueDepth)),
    queueThrottleAt: list[0]!.queueThrottleAt,
    peakRunningWorkers: maxOrNull(list.map((h) => h.peakRunningWorkers)),
    workersMax: list[0]!.workersMax,
  };
}
