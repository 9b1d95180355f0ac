/**
 * `serve`'s gauges of its LLM endpoints' batching engines, vLLM's names after `loadlab_engine_`:
 * requests running and waiting, KV cache usage (endpoints with `kvCacheTokens` only) and
 * preemptions. Registered only when some endpoint has an engine, at 0 from the start for each such
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
}

/** Adds the engine families to `m`'s registry for `endpoints` (each with whether its cache is modelled); `read` is called at every scrape. */
export function collectEngineMetrics(m: Metrics, endpoints: readonly { id: string; cache: boolean }[], read: () => Iterable<EngineReading>): void {
  const registers = [m.registry];
  const gauge = (name: string, help: string) => new Gauge({ name, help, labelNames: ['endpoint'], registers });
  const running = gauge(METRIC.engineRunning, 'Requests in a batch of the LLM engines, summed over workers (vLLM num_requests_running)');
  const waiting = gauge(METRIC.engineWaiting, 'Requests held by workers outside their batch (vLLM num_requests_waiting)');
  const usage = gauge(METRIC.engineKvCacheUsage, 'KV cache blocks held over the blocks of the workers up, 0-1 (vLLM kv_cache_usage)');
  const preemptions = new Counter({ name: METRIC.enginePreemptions, help: 'Sequences preempted (vLLM num_preemptions)', labelNames: ['endpoint'], registers });
  const told = new Map<string, number>();
  for (const { id: endpoint, cache } of endpoints) {
    running.set({ endpoint }, 0);
    waiting.set({ endpoint }, 0);
    if (cache) usage.set({ endpoint }, 0);
    preemptions.inc({ endpoint }, 0);
    told.set(endpoint, 0);
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
    }
  });
}
