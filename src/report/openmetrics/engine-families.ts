/**
 * An LLM endpoint's batching engines over time (`windows.endpoint.engine`), with serve's names
 * (vLLM's, after `loadlab_engine_`): requests running and waiting and KV cache usage as gauges
 * (time averages per window), preemptions and (with prefix caching) the prefix cache's queries
 * and hits as counters (0 at the start, the running total at every window end). Nothing for other
 * endpoints.
 */
import { METRIC } from '../../contract/metric-names.js';
import { per, type OmContext } from './om-context.js';
import { family } from './timeline-families.js';

export function engineFamilies({ r, e, win }: OmContext): void {
  const g = r.windows?.endpoint?.engine;
  if (!g || !win) return;
  const w = `time average over the simulator's clock, ${per(win)}`;
  const one = (col: readonly number[]) => [[e.labels(), win.values(col)] as const];
  e.gauge(METRIC.engineRunning, `Requests in a batch of the LLM engines, summed over workers: vLLM num_requests_running (${w})`, one(g.running));
  e.gauge(
    METRIC.engineWaiting,
    `Requests held by workers outside their batch (front end, waiting for a place or KV cache blocks): vLLM num_requests_waiting (${w})`,
    one(g.waiting),
  );
  if (g.kvCacheUsage)
    e.gauge(METRIC.engineKvCacheUsage, `KV cache blocks held over the blocks of the workers up, 0-1: vLLM kv_cache_usage (${w})`, one(g.kvCacheUsage), 'ratio');
  e.counter(family(METRIC.enginePreemptions), `Sequences preempted (their KV cache blocks taken back): vLLM num_preemptions (${per(win)})`, [
    [e.labels(), win.cumulative(g.preemptions.map((p) => Math.max(0, p)))],
  ]);
  if (g.prefixCacheQueries && g.prefixCacheHits) {
    e.counter(family(METRIC.enginePrefixCacheQueries), `Prompt tokens of requests that joined a batch: vLLM prefix_cache_queries (${per(win)})`, [
      [e.labels(), win.cumulative(g.prefixCacheQueries.map((p) => Math.max(0, p)))],
    ]);
    e.counter(family(METRIC.enginePrefixCacheHits), `Prompt tokens found in the worker's prefix cache: vLLM prefix_cache_hits (${per(win)})`, [
      [e.labels(), win.cumulative(g.prefixCacheHits.map((p) => Math.max(0, p)))],
    ]);
  }
}
