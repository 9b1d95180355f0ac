/**
 * "loadlab — simulator": what `loadlab serve` exports on /metrics (METRIC names, PROCESS_METRIC),
 * scraped by Prometheus (grafana/prometheus.yml, job `loadlab-serve`). Every selector carries
 * `scenario=""`: a live runner and metrics.om reuse some serve families with a `scenario` label,
 * and those belong on "loadlab — run".
 */
import { METRIC as M, PROCESS_METRIC as P } from '../../src/contract/metric-names.js';
import type { Dashboard } from './grafana-json.js';
import { layout, variable, type RowSpec } from './panels.js';
import { bucket, eq, maxBy, quantile, rate, ratioOn, re, sel, sumBy, total } from './promql.js';
import { dashboardShell } from './shell.js';

/** Serve's own series: the scrape target, not a run. */
const TARGET = [re('job'), re('instance'), eq('scenario', '')];
/** Series with an `endpoint` label. */
const EP = [...TARGET, re('endpoint')];

const rows: RowSpec[] = [
  {
    title: 'Jobs',
    panels: [
      {
        title: 'Jobs accepted/s by kind',
        unit: 'short',
        width: 8,
        stack: true,
        description: `Jobs accepted into the queue per second, by kind: run, runsync, openai (${total(M.jobsAccepted)}).`,
        queries: [{ expr: sumBy(['kind'], rate(sel(total(M.jobsAccepted), EP))), legend: '{{kind}}' }],
      },
      {
        title: 'Jobs finished/s by status',
        unit: 'short',
        width: 8,
        stack: true,
        description: `Jobs reaching a terminal status per second: COMPLETED, FAILED, CANCELLED, TIMED_OUT (${total(M.jobsFinished)}).`,
        queries: [{ expr: sumBy(['status'], rate(sel(total(M.jobsFinished), EP))), legend: '{{status}}' }],
      },
      {
        title: 'Jobs re-queued and expired /s',
        unit: 'short',
        width: 8,
        description: `Jobs sent back to the queue (crash, retry: ${total(M.jobsRequeued)}), removed by ttl or the end of retention (${total(M.jobsExpired)}) and purged (${total(M.jobsPurged)}), per second.`,
        queries: [
          { expr: sumBy(['reason'], rate(sel(total(M.jobsRequeued), EP))), legend: 're-queued {{reason}}' },
          { expr: sumBy(['reason'], rate(sel(total(M.jobsExpired), EP))), legend: 'expired {{reason}}' },
          { expr: sumBy([], rate(sel(total(M.jobsPurged), EP))), legend: 'purged' },
        ],
      },
    ],
  },
  {
    title: 'Queue and workers',
    panels: [
      {
        title: 'Queue length and jobs in progress',
        unit: 'short',
        description: `Jobs waiting in the queue (${M.queueJobs}) and jobs held by workers (${M.jobsInProgress}: above the running workers when a worker takes several, workerConcurrency), per endpoint.`,
        queries: [
          { expr: sumBy(['endpoint'], sel(M.queueJobs, EP)), legend: 'queued {{endpoint}}' },
          { expr: sumBy(['endpoint'], sel(M.jobsInProgress, EP)), legend: 'in progress {{endpoint}}' },
        ],
      },
      {
        title: 'Workers by state',
        unit: 'short',
        stack: true,
        description: `Workers per state, stacked: initializing, idle, running, throttled, unhealthy (${M.workers}).`,
        queries: [{ expr: sumBy(['state'], sel(M.workers, EP)), legend: '{{state}}' }],
      },
      {
        title: 'Workers by GPU type',
        unit: 'short',
        stack: true,
        width: 24,
        description: `Endpoints that list their GPU types (gpus): the workers placed on each type, by state, stacked (${M.workersByGpu}). A worker waiting for room on every type is on none (throttled in ${M.workers}). Empty for endpoints without gpus.`,
        queries: [{ expr: sumBy(['gpu', 'state'], sel(M.workersByGpu, EP)), legend: '{{gpu}} {{state}}' }],
      },
    ],
  },
  {
    title: 'LLM engine',
    panels: [
      {
        title: 'Requests running and waiting inside the engine',
        unit: 'short',
        width: 8,
        description: `An LLM endpoint's batching engines (llm.engine), summed over its workers: requests in a batch (${M.engineRunning}, vLLM num_requests_running) and held by a worker outside its batch, in the front end or waiting for a place or KV cache blocks (${M.engineWaiting}, num_requests_waiting).`,
        queries: [
          { expr: sumBy(['endpoint'], sel(M.engineRunning, EP)), legend: 'running {{endpoint}}' },
          { expr: sumBy(['endpoint'], sel(M.engineWaiting, EP)), legend: 'waiting {{endpoint}}' },
        ],
      },
      {
        title: 'KV cache usage',
        unit: 'percentunit',
        thresholds: [0.8, 1],
        width: 8,
        description: `KV cache blocks held over the blocks of the workers up (${M.engineKvCacheUsage}, vLLM kv_cache_usage); only for endpoints with llm.engine.kvCacheTokens.`,
        queries: [{ expr: maxBy(['endpoint'], sel(M.engineKvCacheUsage, EP)), legend: '{{endpoint}}' }],
      },
      {
        title: 'Preemptions/s',
        unit: 'ops',
        width: 8,
        description: `Sequences preempted per second when the KV cache ran out (${M.enginePreemptions}, vLLM num_preemptions).`,
        queries: [{ expr: sumBy(['endpoint'], rate(sel(M.enginePreemptions, EP))), legend: '{{endpoint}}' }],
      },
      {
        title: 'Prefix cache hit rate',
        unit: 'percentunit',
        width: 8,
        description: `Prompt tokens found in the workers' prefix caches over the prompt tokens of requests that joined a batch (${M.enginePrefixCacheHits} / ${M.enginePrefixCacheQueries}, vLLM prefix_cache_hits / prefix_cache_queries); only for endpoints with llm.engine.prefixCaching.`,
        queries: [
          {
            expr: ratioOn(
              sumBy(['endpoint'], rate(sel(M.enginePrefixCacheHits, EP))),
              ['endpoint'],
              sumBy(['endpoint'], rate(sel(M.enginePrefixCacheQueries, EP))),
            ),
            legend: '{{endpoint}}',
          },
        ],
      },
    ],
  },
  {
    title: 'Job timings',
    panels: [
      {
        title: 'Job queue delay p50 / p95',
        unit: 's',
        description: `Virtual time in the queue before a start, per endpoint (histogram_quantile over ${bucket(M.jobDelay)}).`,
        queries: ([0.5, 0.95] as const).map((q) => ({ expr: quantile(q, sel(bucket(M.jobDelay), EP), ['endpoint']), legend: `p${q * 100} {{endpoint}}` })),
      },
      {
        title: 'Job execution p50 / p95',
        unit: 's',
        description: `Virtual running time until a terminal status, per endpoint (histogram_quantile over ${bucket(M.jobExecution)}).`,
        queries: ([0.5, 0.95] as const).map((q) => ({ expr: quantile(q, sel(bucket(M.jobExecution), EP), ['endpoint']), legend: `p${q * 100} {{endpoint}}` })),
      },
    ],
  },
  {
    title: 'Limits and webhooks',
    panels: [
      {
        title: '429/s by cause and operation',
        unit: 'reqps',
        stack: true,
        description: `Requests answered 429 per second, by operation and the limit hit: rate, concurrency, queue (${total(M.requestsLimited)}).`,
        queries: [{ expr: sumBy(['operation', 'cause'], rate(sel(total(M.requestsLimited), EP))), legend: '{{operation}} {{cause}}' }],
      },
      {
        title: 'Webhook attempts/s by outcome',
        unit: 'short',
        description: `Webhook attempts per second: delivered, failed (retried later), gave-up (${total(M.webhookAttempts)}).`,
        queries: [{ expr: sumBy(['outcome'], rate(sel(total(M.webhookAttempts), EP))), legend: '{{outcome}}' }],
      },
    ],
  },
  {
    title: 'Load-balancing endpoints',
    panels: [
      {
        title: 'Balancer failures/s by cause',
        unit: 'reqps',
        stack: true,
        description: `A load-balancing endpoint's requests its balancer ended rather than a worker answering them, per second by cause: no-workers (503 after 2 min without a worker), timeout (504 past 5.5 min), dropped (502, the worker crashed), worker-timeout and worker-gone (strict affinity) (${total(M.balancerFailed)}). Empty for queue endpoints.`,
        queries: [{ expr: sumBy(['endpoint', 'cause'], rate(sel(total(M.balancerFailed), EP))), legend: '{{endpoint}} {{cause}}' }],
      },
      {
        title: 'Requests waiting at the balancer',
        unit: 'short',
        description: `A load-balancing endpoint's requests waiting for a worker with room, strict affinity ones included (${M.balancerPending}). Empty for queue endpoints.`,
        queries: [{ expr: sumBy(['endpoint'], sel(M.balancerPending, EP)), legend: '{{endpoint}}' }],
      },
    ],
  },
  {
    title: 'HTTP',
    panels: [
      {
        title: 'HTTP requests/s by route and status',
        unit: 'reqps',
        description: `Requests answered by loadlab serve per second, by route and HTTP status (${total(M.httpRequests)}).`,
        queries: [{ expr: sumBy(['route', 'status'], rate(sel(total(M.httpRequests), TARGET))), legend: '{{route}} {{status}}' }],
      },
      {
        title: 'Held requests p95 by route',
        unit: 's',
        description: `Virtual time from arrival to answer of requests held past their arrival (runsync, status-sync, stream), 95th percentile (${bucket(M.httpRequestDuration)}).`,
        queries: [{ expr: quantile(0.95, sel(bucket(M.httpRequestDuration), TARGET), ['route']), legend: '{{route}}' }],
      },
    ],
  },
  {
    title: 'Process',
    panels: [
      {
        title: 'Virtual time',
        unit: 's',
        width: 8,
        description: `Virtual time since the simulation started (${M.virtualTime}); against the wall-clock x axis its slope is the speed.`,
        queries: [{ expr: sel(M.virtualTime, TARGET), legend: '{{instance}}' }],
      },
      {
        title: 'Speed: virtual seconds per wall second',
        unit: 'short',
        width: 8,
        description: `How fast virtual time runs against wall time: rate of ${M.virtualTime} (1 with --speed 1; 0 while a manual clock is not advanced).`,
        queries: [{ expr: rate(sel(M.virtualTime, TARGET)), legend: '{{instance}}' }],
      },
      {
        title: 'Process memory',
        unit: 'bytes',
        width: 8,
        description: `Resident set size (${P.residentMemory}) and V8 heap in use (${P.heapUsed}) of the serve process.`,
        queries: [
          { expr: sel(P.residentMemory, TARGET), legend: 'resident {{instance}}' },
          { expr: sel(P.heapUsed, TARGET), legend: 'heap used {{instance}}' },
        ],
      },
    ],
  },
];

export function simulatorDashboard(): Dashboard {
  const vt = M.virtualTime;
  return dashboardShell({
    uid: 'loadlab-simulator',
    title: 'loadlab — simulator',
    tags: ['loadlab', 'serve'],
    from: 'now-15m',
    refresh: '10s',
    description:
      'What loadlab serve exports on /metrics: jobs, queue, workers, 429s, webhooks, load-balancing endpoints, HTTP, job timings, virtual time and process memory.',
    annotations: [],
    variables: [
      variable('job', 'Job', 'Prometheus scrape job of loadlab serve.', sel(vt, [eq('scenario', '')])),
      variable('instance', 'Instance', 'host:port of a loadlab serve process.', sel(vt, [re('job'), eq('scenario', '')])),
      // Every endpoint has its workers gauge (a load-balancing one has no queue gauge).
      variable('endpoint', 'Endpoint', 'Simulated endpoint id.', sel(M.workers, TARGET)),
    ],
    panels: layout(rows),
  });
}
