/**
 * `serve`'s gauges of its LLM endpoints' batching engines, vLLM's names after `loadlab_engine_`:
 * requests running and waiting, KV cache usage (endpoints with `kvCacheTokens` only),
 * preemptions, and prefix cache queries and hits (endpoints with `prefixCaching` only). Registered only when some endpoint has an engine, at 0 from the start for each such
 * endpoint, and read from the simulator at scrape time (the engines change at every token step,
 * not at domain events).
 */
import { Counter, Gauge } from 'prom-client';
import { METRIC } from '../contract/metric-names.js';
import type { Metrics } from './registry.js';

/** One endpoint's engines now: summed over its workers; `kvCacheUsage` undefined when the cache is not modelled. */
export interface EngineReading {
  endpoint: string;
  running: number;
  waiting: number;
  kvCacheUsage: number | undefined;
  /** Since the start (cumulative). */
  preemptions: number;
  /** With prefix caching, since the start (cumulative, prompt tokens); undefined without. */
  prefixQueries: number | undefined;
  prefixHits: number | undefined;
}

/**
 * Adds the engine families to `m`'s registry for `endpoints` (each with whether its KV cache is
 * modelled and whether it caches prefixes); `read` is called at every scrape.
 */
export function collectEngineMetrics(
  m: Metrics,
  endpoints: readonly { id: string; cache: boolean; prefix: boolean }[],
  read: () => Iterable<EngineReading>,
): void {
  const registers = [m.registry];
  const gauge = (name: string, help: string) => new Gauge({ name, help, labelNames: ['endpoint'], registers });
  const running = gauge(METRIC.engineRunning, 'Requests in a batch of the LLM engines, summed over workers (vLLM num_requests_running)');
  const waiting = gauge(METRIC.engineWaiting, 'Requests held by workers outside their batch (vLLM num_requests_waiting)');
  const usage = gauge(METRIC.engineKvCacheUsage, 'KV cache blocks held over the blocks of the workers up, 0-1 (vLLM kv_cache_usage)');
  const preemptions = new Counter({ name: METRIC.enginePreemptions, help: 'Sequences preempted (vLLM num_preemptions)', labelNames: ['endpoint'], registers });
  const counter = (name: string, help: string) => new Counter({ name, help, labelNames: ['endpoint'], registers });
  const queries = endpoints.some((e) => e.prefix)
    ? counter(METRIC.enginePrefixCacheQueries, 'Prompt tokens of requests that joined a batch (vLLM prefix_cache_queries)')
    : undefined;
  const hits = queries && counter(METRIC.enginePrefixCacheHits, "Prompt tokens found in the worker's prefix cache (vLLM prefix_cache_hits)");
  const told = new Map<string, number>();
  const toldPrefix = new Map<string, { queries: number; hits: number }>();
  for (const { id: endpoint, cache, prefix } of endpoints) {
    running.set({ endpoint }, 0);
    waiting.set({ endpoint }, 0);
    if (cache) usage.set({ endpoint }, 0);
    preemptions.inc({ endpoint }, 0);
    told.set(endpoint, 0);
    if (prefix && queries && hits) {
      queries.inc({ endpoint }, 0);
      hits.inc({ endpoint }, 0);
      toldPrefix.set(endpoint, { queries: 0, hits: 0 });
    }
  }
  m.beforeScrape.push(() => {
    for (const x of read()) {
      const endpoint = x.endpoint;
      running.set({ endpoint }, x.running);
      waiting.set({ endpoint }, x.waiting);
      if (x.kvCacheUsage !== undefined) usage.set({ endpoint }, x.kvCacheUsage);
      const d = x.preemptions - (told.get(endpoint) ?? 0);
      if (d > 0) preemptions.inc({ endpoint }, d);
      told.set(endpoint, x.preemptions);
      const t = toldPrefix.get(endpoint);
      if (t && queries && hits && x.prefixQueries !== undefined && x.prefixHits !== undefined) {
        if (x.prefixQueries > t.queries) queries.inc({ endpoint }, x.prefixQueries - t.queries);
        if (x.prefixHits > t.hits) hits.inc({ endpoint }, x.prefixHits - t.hits);
        t.queries = x.prefixQueries;
        t.hits = x.prefixHits;
      }
    }
  });
}
