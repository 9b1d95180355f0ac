/**
 * RunResult `engine`: the batching engines over the whole run, summed up from the windows
 * (`windows.endpoint.engine`), so a merged result gets its summary from its merged windows the
 * same way. Each window weighs by the time of the run it covers (the last may be cut short);
 * windows without a view (-1, a merge) are left out.
 */
import type { EndpointWindows, EngineSummary } from './run-result.js';
import { round3 } from '../lib/time-averages.js';
import { hitRate } from './prefix-cache-rate.js';

export function engineSummaryOf(ep: EndpointWindows | undefined, windowMs: number, endMs: number): EngineSummary | undefined {
  const e = ep?.engine;
  if (!ep || !e) return undefined;
  let ms = 0;
  let running = 0;
  let waiting = 0;
  let inSystem = 0;
  let usage = 0;
  let peak = -1;
  let preemptions = 0;
  let queries = 0;
  let hits = 0;
  for (let i = 0; i < e.running.length; i++) {
    const covered = Math.min(endMs, (i + 1) * windowMs) - i * windowMs;
    preemptions += Math.max(0, e.preemptions[i] ?? 0);
    queries += Math.max(0, e.prefixCacheQueries?.[i] ?? 0);
    hits += Math.max(0, e.prefixCacheHits?.[i] ?? 0);
    peak = Math.max(peak, e.kvCacheUsageMax?.[i] ?? -1);
    if (!(covered > 0) || !(e.running[i]! >= 0)) continue;
    ms += covered;
    running += e.running[i]! * covered;
    waiting += e.waiting[i]! * covered;
    inSystem += Math.max(0, ep.jobsInSystem[i] ?? 0) * covered;
    usage += Math.max(0, e.kvCacheUsage?.[i] ?? 0) * covered;
  }
  const mean = (area: number) => (ms > 0 ? round3(area / ms) : 0);
  return {
    runningMean: mean(running),
    waitingMean: mean(waiting),
    ...(e.kvCacheUsage ? { kvCacheUsageMean: mean(usage), kvCacheUsagePeak: Math.max(0, peak) } : {}),
    preemptions,
    ...(e.prefixCacheQueries ? { prefixCacheQueries: queries, prefixCacheHits: hits, prefixCacheHitRate: hitRate(queries, hits) } : {}),
    waitingShareOfRequestTime: inSystem > 0 ? round3(waiting / inSystem) : null,
  };
}
