/**
 * "loadlab — run": the load client's view of one or more runs, from `loadlab run`'s metrics.om
 * (backfilled, virtual or wall time) or its live `/metrics` (`--metrics-listen`). It reads only
 * CLIENT_METRIC families and the serve names metrics.om reuses (METRIC.requestsLimited,
 * balancerFailed, jobsFinished, webhookAttempts, and an LLM endpoint's engine*), every series labelled `scenario`
 * and `endpoint`.
 */
import { CLIENT_METRIC as C, METRIC as M } from '../../src/contract/metric-names.js';
import { DATASOURCE } from './datasource.js';
import type { Annotation, Dashboard } from './grafana-json.js';
import { customVariable, layout, variable, type RowSpec } from './panels.js';
import { bucket, eq, increase, maxBy, quantile, rate, ratioOn, re, sel, sumBy, total } from './promql.js';
import { dashboardShell } from './shell.js';

const RUN = [re('scenario'), re('endpoint')];
const OP = [...RUN, re('operation')];
const FLOW = [...RUN, re('flow')];
const SE = ['scenario', 'endpoint'];
const SEO = [...SE, 'operation'];
const limit = (name: string, extra: string[] = []) =>
  maxBy(name === 'rate' || name === 'concurrency' ? SEO : SE, sel(C.limit, [...RUN, ...extra, eq('limit', name)]));

const p95ByFlow = (family: string) => quantile(0.95, sel(bucket(family), FLOW), ['flow']);

const rows: RowSpec[] = [
  {
    title: 'Traffic',
    panels: [
      {
        title: 'Requests/s by operation',
        unit: 'reqps',
        description: `Requests the load client sent per second, every attempt including re-sends after a 429 (${total(C.requests)}).`,
        queries: [{ expr: sumBy(['operation'], rate(sel(total(C.requests), OP))), legend: '{{operation}}' }],
      },
      {
        title: 'Responses/s by status',
        unit: 'reqps',
        description: `Answers per second by HTTP status, status 0 meaning no answer (${total(C.responses)}; in metrics.om a whole-run figure, so only its total shows on a backfilled run), and 2xx answers of all operations per window (${total(C.responses2xx)}).`,
        queries: [
          { expr: sumBy(['status'], rate(sel(total(C.responses), OP))), legend: '{{status}}' },
          { expr: sumBy([], rate(sel(total(C.responses2xx), RUN))), legend: '2xx (all operations)' },
        ],
      },
      {
        title: '429/s by cause',
        unit: 'reqps',
        stack: true,
        description: `Answers 429 per second by the limit hit: rate, concurrency, queue (unknown when a real deployment does not say) (${total(M.requestsLimited)} with a scenario label).`,
        queries: [{ expr: sumBy(['cause'], rate(sel(total(M.requestsLimited), RUN))), legend: '{{cause}}' }],
      },
      {
        title: 'Balancer failures/s by cause',
        unit: 'reqps',
        stack: true,
        description: `A load-balancing endpoint's requests its balancer ended rather than a worker answering them, per second by cause: no-workers (503 after 2 min without a worker), timeout (504 past 5.5 min), dropped (502, the worker crashed), worker-timeout and worker-gone (strict affinity) (${total(M.balancerFailed)} with a scenario label). Empty for queue endpoints.`,
        queries: [{ expr: sumBy(['cause'], rate(sel(total(M.balancerFailed), RUN))), legend: '{{cause}}' }],
      },
      {
        title: 'Responses by operation and status (total in range)',
        unit: 'short',
        kind: 'bargauge',
        width: 24,
        description: `Answers over the whole time range, per operation and HTTP status (${total(C.responses)}).`,
        queries: [
          { expr: sumBy(['operation', 'status'], increase(sel(total(C.responses), OP), '$__range')), legend: '{{operation}} {{status}}', instant: true },
        ],
      },
    ],
  },
  {
    title: 'Response time',
    panels: [
      {
        title: 'Response time p50 / p95 / p99 by operation',
        unit: 's',
        description: `Intended send to answer, so time waiting to send counts (histogram_quantile over ${bucket(C.responseSeconds)}; resolution: the bucket bounds).`,
        queries: ([0.5, 0.95, 0.99] as const).map((q) => ({
          expr: quantile(q, sel(bucket(C.responseSeconds), OP), ['operation']),
          legend: `p${q * 100} {{operation}}`,
        })),
      },
      {
        title: 'Response time heatmap',
        unit: 's',
        kind: 'heatmap',
        description: `Answers per response-time bucket over time, the selected operations together (${bucket(C.responseSeconds)}).`,
        queries: [{ expr: sumBy(['le'], increase(sel(bucket(C.responseSeconds), OP), '$__rate_interval')), legend: '{{le}}' }],
      },
    ],
  },
  {
    title: 'Jobs by flow',
    panels: [
      {
        title: 'Job turnaround p95 by flow',
        unit: 's',
        description: `A job's intended submission to the terminal status its client read, 95th percentile per flow (${bucket(C.turnaroundSeconds)}).`,
        queries: [{ expr: p95ByFlow(C.turnaroundSeconds), legend: '{{flow}}' }],
      },
      {
        title: 'Jobs finished/s by status',
        unit: 'short',
        stack: true,
        description: `Terminal statuses read by clients per second (${total(M.jobsFinished)} with a scenario label; in metrics.om COMPLETED per window, other statuses whole run).`,
        queries: [{ expr: sumBy(['status'], rate(sel(total(M.jobsFinished), RUN))), legend: '{{status}}' }],
      },
      {
        title: 'Queue delay p95 by flow',
        unit: 's',
        description: `delayTime of the terminal status bodies the flow's clients read, 95th percentile (${bucket(C.queueDelaySeconds)}).`,
        queries: [{ expr: p95ByFlow(C.queueDelaySeconds), legend: '{{flow}}' }],
      },
      {
        title: 'Execution p95 by flow',
        unit: 's',
        description: `executionTime of the terminal status bodies the flow's clients read, 95th percentile (${bucket(C.executionSeconds)}).`,
        queries: [{ expr: p95ByFlow(C.executionSeconds), legend: '{{flow}}' }],
      },
    ],
  },
  {
    title: 'Streams by flow',
    panels: [
      {
        title: 'Time to first token p50 / p95 / p99 by flow',
        unit: 's',
        description: `Intended send to a stream's first content chunk, per streaming flow (run-stream, streamed openai-chat) (histogram_quantile over ${bucket(C.ttftSeconds)}).`,
        queries: ([0.5, 0.95, 0.99] as const).map((q) => ({ expr: quantile(q, sel(bucket(C.ttftSeconds), FLOW), ['flow']), legend: `p${q * 100} {{flow}}` })),
      },
      {
        title: 'Inter-token latency and time per output token p95 by flow',
        unit: 's',
        description: `Each gap between consecutive content chunks (${bucket(C.itlSeconds)}) and (last − first chunk) / (tokens − 1) per stream (${bucket(C.tpotSeconds)}), 95th percentile per flow.`,
        queries: [
          { expr: p95ByFlow(C.itlSeconds), legend: 'ITL {{flow}}' },
          { expr: p95ByFlow(C.tpotSeconds), legend: 'TPOT {{flow}}' },
        ],
      },
      {
        title: 'Output tokens/s by flow',
        unit: 'short',
        description: `Output tokens of streamed requests per second: usage.completion_tokens, else content chunks, counted when the stream ended (${total(C.streamTokens)}).`,
        queries: [{ expr: sumBy(['flow'], rate(sel(total(C.streamTokens), FLOW))), legend: '{{flow}}' }],
      },
      {
        title: 'Goodput by flow',
        unit: 'percentunit',
        description: `The share of streamed requests within the flow's goodput targets (TTFT and TPOT at most the scenario's goodput: values; flows without targets show nothing): ${total(C.streamGoodRequests)} ÷ ${total(C.streamRequests)}.`,
        queries: [
          {
            expr: ratioOn(sumBy(['flow'], rate(sel(total(C.streamGoodRequests), FLOW))), ['flow'], sumBy(['flow'], rate(sel(total(C.streamRequests), FLOW)))),
            legend: '{{flow}}',
          },
        ],
      },
    ],
  },
  {
    title: 'Endpoint: queue, workers, headroom',
    panels: [
      {
        title: 'Queue length',
        unit: 'short',
        description: `Jobs waiting in the endpoint's queue (${C.endpointQueueJobs}: time average per window backfilled, the last sample live) and the deepest queue a probe saw (${C.queueJobsMax}).`,
        queries: [
          { expr: sumBy(['endpoint'], sel(C.endpointQueueJobs, RUN)), legend: '{{endpoint}} queue' },
          { expr: maxBy(['endpoint'], sel(C.queueJobsMax, RUN)), legend: '{{endpoint}} deepest seen' },
        ],
      },
      {
        title: 'Workers by state against workersMax',
        unit: 'short',
        stack: true,
        limitLines: ['B'],
        description: `The endpoint's workers by state, stacked (${C.endpointWorkers}), and workersMax as a dashed line (${C.limit}{limit="workers"}).`,
        queries: [
          { expr: sumBy(['state'], sel(C.endpointWorkers, RUN)), legend: '{{state}}' },
          { expr: sumBy([], limit('workers')), legend: 'workersMax' },
        ],
      },
      {
        title: 'Headroom: use of each limit',
        unit: 'percentunit',
        thresholds: [0.8, 1],
        width: 24,
        description: `Each limit's use, 80 % yellow and 100 % red: requests/s ÷ the rate limit per operation; requests in flight (${C.inFlightMax}) ÷ the concurrency limit; queue (${C.queueJobsMax}) ÷ the queue-throttle depth; running workers ÷ workersMax. Limits: ${C.limit}.`,
        queries: [
          { expr: ratioOn(sumBy(SEO, rate(sel(total(C.requests), OP))), SEO, limit('rate', [re('operation')])), legend: 'rate {{operation}}' },
          { expr: ratioOn(maxBy(SEO, sel(C.inFlightMax, OP)), SEO, limit('concurrency', [re('operation')])), legend: 'concurrency {{operation}}' },
          { expr: ratioOn(maxBy(SE, sel(C.queueJobsMax, RUN)), SE, limit('queue')), legend: 'queue {{endpoint}}' },
          { expr: ratioOn(sumBy(SE, sel(C.endpointWorkers, [...RUN, eq('state', 'running')])), SE, limit('workers')), legend: 'workers {{endpoint}}' },
        ],
      },
      {
        title: 'Workers by GPU type',
        unit: 'short',
        stack: true,
        width: 24,
        description: `An endpoint that lists its GPU types (endpoint.gpus): its workers placed on each type, by state, stacked (${C.endpointWorkersByGpu}). A worker waiting for room on every type is on none (throttled in the panel above). Empty for endpoints without gpus.`,
        queries: [{ expr: sumBy(['gpu', 'state'], sel(C.endpointWorkersByGpu, RUN)), legend: '{{gpu}} {{state}}' }],
      },
    ],
  },
  {
    title: 'LLM engine: running, waiting, KV cache',
    panels: [
      {
        title: 'Requests running and waiting inside the engine',
        unit: 'short',
        width: 8,
        description: `An LLM endpoint's batching engines (llm.engine), summed over its workers: requests in a batch (${M.engineRunning}, vLLM num_requests_running) and held by a worker outside its batch, in the front end or waiting for a place or KV cache blocks (${M.engineWaiting}, num_requests_waiting). Time averages per window; from the embedded simulator (in process or lockstep), backfilled.`,
        queries: [
          { expr: sumBy(['endpoint'], sel(M.engineRunning, RUN)), legend: 'running {{endpoint}}' },
          { expr: sumBy(['endpoint'], sel(M.engineWaiting, RUN)), legend: 'waiting {{endpoint}}' },
        ],
      },
      {
        title: 'KV cache usage',
        unit: 'percentunit',
        thresholds: [0.8, 1],
        width: 8,
        description: `KV cache blocks held over the blocks of the workers up (${M.engineKvCacheUsage}, vLLM kv_cache_usage): time average per window; only when the scenario sets llm.engine.kvCacheTokens. Near 100 %, requests wait for blocks and sequences are preempted.`,
        queries: [{ expr: maxBy(['endpoint'], sel(M.engineKvCacheUsage, RUN)), legend: '{{endpoint}}' }],
      },
      {
        title: 'Preemptions/s',
        unit: 'ops',
        width: 8,
        description: `Sequences preempted per second: the KV cache ran out, so the newest running sequence gave its blocks back and waits to be prefilled again (${M.enginePreemptions}, vLLM num_preemptions).`,
        queries: [{ expr: sumBy(['endpoint'], rate(sel(M.enginePreemptions, RUN))), legend: '{{endpoint}}' }],
      },
      {
        title: 'Prefix cache hit rate',
        unit: 'percentunit',
        width: 8,
        description: `Prompt tokens found in the workers' prefix caches over the prompt tokens of requests that joined a batch (${M.enginePrefixCacheHits} / ${M.enginePrefixCacheQueries}, vLLM prefix_cache_hits / prefix_cache_queries); only when the scenario sets llm.engine.prefixCaching. Each worker has its own cache: more workers behind the queue, a lower rate.`,
        queries: [
          {
            expr: ratioOn(
              sumBy(['endpoint'], rate(sel(M.enginePrefixCacheHits, RUN))),
              ['endpoint'],
              sumBy(['endpoint'], rate(sel(M.enginePrefixCacheQueries, RUN))),
            ),
            legend: '{{endpoint}}',
          },
        ],
      },
    ],
  },
  {
    title: 'Webhooks, expiries, arrivals',
    panels: [
      {
        title: 'Webhook attempts/s by outcome',
        unit: 'short',
        width: 8,
        description: `Webhook attempts per second: delivered, failed (retried later), gave-up (${total(M.webhookAttempts)} with a scenario label; whole run in metrics.om), and attempts the receiver failed per window (${total(C.webhookFailures)}).`,
        queries: [
          { expr: sumBy(['outcome'], rate(sel(total(M.webhookAttempts), RUN))), legend: '{{outcome}}' },
          { expr: sumBy([], rate(sel(total(C.webhookFailures), RUN))), legend: 'failed at the receiver' },
        ],
      },
      {
        title: 'Expiries and timeouts /s',
        unit: 'short',
        width: 8,
        description: `404s for jobs known to exist, the result expired before it was read (${total(C.expiriesSeen)}), and requests the client gave up waiting for (${total(C.timeouts)}).`,
        queries: [
          { expr: sumBy([], rate(sel(total(C.expiriesSeen), RUN))), legend: 'expired before read' },
          { expr: sumBy([], rate(sel(total(C.timeouts), RUN))), legend: 'client timeouts' },
        ],
      },
      {
        title: 'Late and dropped arrivals /s',
        unit: 'short',
        width: 8,
        description: `Open-model arrivals sent later than openModel.lateAfterMs (${total(C.arrivalsLate)}) and never sent, held by the in-flight cap too long (${total(C.arrivalsDropped)}). Non-zero means the client, not the endpoint, shaped the load.`,
        queries: [
          { expr: sumBy([], rate(sel(total(C.arrivalsLate), RUN))), legend: 'late' },
          { expr: sumBy([], rate(sel(total(C.arrivalsDropped), RUN))), legend: 'dropped' },
        ],
      },
    ],
  },
];

/** Grafana runs the annotation queries with this step. */
const ANNOTATION_STEP = '60s';

/**
 * Run start/end: the gauge's value (Unix seconds, × 1000 for ms) is the annotation's time. The
 * gauge is read with max_over_time over one step: a live runner's end time is in its last scrape
 * only (the runner then exits and Prometheus marks its series stale a scrape later), so a plain
 * selector evaluated every 60 s would almost always miss it.
 */
function runAnnotation(name: string, family: string, color: string): Annotation {
  return {
    name,
    datasource: DATASOURCE,
    enable: true,
    hide: false,
    iconColor: color,
    expr: `${maxBy(SE, `max_over_time(${sel(family, RUN)}[${ANNOTATION_STEP}])`)} * 1000`,
    useValueForTime: true,
    step: ANNOTATION_STEP,
    titleFormat: name,
    textFormat: '{{scenario}} on {{endpoint}}',
    tagKeys: 'scenario,endpoint',
  };
}

export function runDashboard(): Dashboard {
  const requests = total(C.requests);
  return dashboardShell({
    uid: 'loadlab-run',
    title: 'loadlab — run',
    tags: ['loadlab', 'client'],
    from: 'now-1h',
    refresh: '',
    description:
      "The load client's view of a run: traffic, response time, jobs per flow, streams (TTFT, ITL, TPOT, tokens/s, goodput), the endpoint against its limits. Backfilled from metrics.om or scraped live from loadlab run --metrics-listen.",
    annotations: [runAnnotation('Run start', C.runStartTime, 'green'), runAnnotation('Run end', C.runEndTime, 'red')],
    variables: [
      customVariable(
        'resolution',
        'Sample spacing',
        'Time between samples: the scrape interval for a live run (5s in grafana/prometheus.yml), the window for a backfilled one (10s; coarser for runs over about 5.5 h: 1m for a 24 h run). rate() windows span at least four.',
        ['5s', '10s', '30s', '1m', '5m', '10m'],
      ),
      variable('scenario', 'Scenario', 'The scenario name of the run(s).', requests),
      variable('endpoint', 'Endpoint', 'The endpoint id of the scenario.', sel(requests, [re('scenario')])),
      variable('operation', 'Operation', 'API operation: run, runsync, status, ….', sel(requests, RUN)),
      variable('flow', 'Flow', "The scenario's traffic flows.", sel(`${C.turnaroundSeconds}_count`, RUN)),
    ],
    panels: layout(rows, { interval: '$resolution' }),
  });
}
