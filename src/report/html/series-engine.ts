/**
 * An LLM endpoint's batching engines over the run (`windows.endpoint.engine`; none for other
 * runs): requests running in a batch against those waiting inside the workers, the KV cache's
 * usage with the preemptions it caused, and with prefix caching the share of prompt tokens found
 * in the workers' caches.
 */
import type { EngineWindows, RunResult } from '../run-result.js';
import { note, total, type ChartSlot } from './chart-slot.js';
import { grouping, maxPerPoint, meanPerPoint, pointNote, pointXs, sumPerPoint, type Grouping } from './downsample.js';

export function engineCharts(r: RunResult): ChartSlot[] {
  const e = r.windows?.endpoint?.engine;
  if (!e) return [];
  const g = grouping(e.running.length, r.windows!.windowMs);
  return [requestsChart(e, g), cacheChart(e, g), ...prefixChart(r, e, g)];
}

/** The prefix cache's hit rate per point: hits over queries of its windows (none where no prompt joined). */
function prefixChart(r: RunResult, e: EngineWindows, g: Grouping): ChartSlot[] {
  if (!e.prefixCacheQueries || !e.prefixCacheHits) return [];
  const q = sumPerPoint(
    e.prefixCacheQueries.map((v) => Math.max(0, v)),
    g,
  );
  const h = sumPerPoint(
    e.prefixCacheHits.map((v) => Math.max(0, v)),
    g,
  );
  const rate = q.map((v, i) => (v > 0 ? Math.round((h[i]! / v) * 1000) / 10 : null));
  const whole = r.engine?.prefixCacheHitRate;
  return [
    {
      kind: 'chart',
      spec: {
        id: 'engine-prefix-cache',
        title: 'Prefix cache hit rate',
        unit: '%',
        x: pointXs(g),
        subtitle: `prompt tokens found in the workers' prefix caches over the prompt tokens of the requests that joined a batch (vLLM prefix_cache_hits / prefix_cache_queries)${whole === undefined || whole === null ? '' : `: ${Math.round(whole * 1000) / 10} % over the run`}; each worker has its own cache; ${pointNote(g, 'sum')} (of tokens, then the rate)`,
        series: [{ label: 'hit rate %', values: rate, color: '#9467bd', width: 2 }],
      },
    },
  ];
}

function requestsChart(e: EngineWindows, g: Grouping): ChartSlot {
  return {
    kind: 'chart',
    spec: {
      id: 'engine-requests',
      title: 'Requests running and waiting inside the engines',
      unit: 'requests',
      x: pointXs(g),
      subtitle: `summed over the workers (vLLM num_requests_running and num_requests_waiting): in a batch, and held by a worker outside it (front end, waiting for a place or for KV cache blocks); time averages from the simulator; ${pointNote(g, 'mean')}`,
      series: [
        { label: 'running', values: meanPerPoint(e.running, g), color: '#2ca02c', width: 2 },
        { label: 'waiting', values: meanPerPoint(e.waiting, g), color: '#d62728', width: 2 },
      ],
    },
  };
}

function cacheChart(e: EngineWindows, g: Grouping): ChartSlot {
  const title = 'KV cache usage and preemptions';
  if (!e.kvCacheUsage) return note('engine-kv-cache', title, 'The KV cache is not modelled in this run (no llm.engine.kvCacheTokens): it never runs out.');
  const pct = (vs: (number | null)[]) => vs.map((v) => (v === null ? null : Math.round(v * 1000) / 10));
  const p = e.preemptions.map((v) => Math.max(0, v));
  return {
    kind: 'chart',
    spec: {
      id: 'engine-kv-cache',
      title,
      unit: '% · preemptions',
      x: pointXs(g),
      subtitle: `KV cache blocks held over the blocks of the workers up (vLLM kv_cache_usage), time average and most held, in %; sequences preempted when the cache ran out (${total(p)} in the run); ${pointNote(g, 'mean')}, preemptions summed`,
      series: [
        { label: 'cache usage %', values: pct(meanPerPoint(e.kvCacheUsage, g)), color: '#1f77b4', width: 2 },
        { label: 'cache usage % (max)', values: pct(maxPerPoint(e.kvCacheUsageMax ?? [], g)), color: '#1f77b4', dash: true },
        { label: 'preemptions', values: sumPerPoint(p, g), color: '#ff7f0e' },
      ],
    },
  };
}
