/**
 * The runner's live `/metrics` (`loadlab run --metrics-listen`): a per-run prom-client Registry
 * with the client families of metrics.om — the same names and labels (CLIENT_METRIC, and the
 * METRIC names metrics.om reuses), without timestamps — plus PROCESS_METRIC. Every value comes
 * from a `LiveSnapshot` read once per scrape from whoever records the run (load/live-metrics/):
 * counters are the run's cumulative totals so far, histograms the whole run so far in
 * DURATION_BUCKETS_S (the stream times TTFT, ITL, TPOT in STREAM_BUCKETS_S, as metrics.om).
 * Every series carries the `endpoint` and `scenario` labels given here.
 */
import { Registry } from 'prom-client';
import { CLIENT_METRIC, DURATION_BUCKETS_S, METRIC, STREAM_BUCKETS_S } from '../contract/metric-names.js';
import { registerProcessMemory } from './process-memory.js';
import { histogramSamples, ScrapedMetric, summarySamples, type LabelSet, type MetricType, type Sample } from './scraped-metric.js';

/** `name_total` of a serve counter → the family name (the sample gets `_total` back below). */
const family = (sampleName: string) => sampleName.replace(/_total$/, '');

/** Counter families (printed with `_total`): [family name, help]. */
const COUNTERS = {
  requests: [CLIENT_METRIC.requests, 'Requests sent by the load client, every attempt'],
  responses: [CLIENT_METRIC.responses, 'Answers by operation and HTTP status, status 0: no answer (timeout or transport error)'],
  responses2xx: [CLIENT_METRIC.responses2xx, 'Answers with a 2xx status'],
  limited: [family(METRIC.requestsLimited), 'Answers 429 by the limit hit, as the client saw them; no operation label'],
  balancerFailed: [family(METRIC.balancerFailed), "A load-balancing endpoint's requests its balancer ended, by cause, as the client saw them"],
  timeouts: [CLIENT_METRIC.timeouts, 'Requests the client gave up waiting for'],
  jobsFinished: [family(METRIC.jobsFinished), 'Terminal statuses read by clients: COMPLETED per read, other statuses per session that ended on one'],
  jobsFailed: [CLIENT_METRIC.jobsFailed, 'Jobs read FAILED or TIMED_OUT'],
  expiriesSeen: [CLIENT_METRIC.expiriesSeen, '404s for jobs known to exist: the result expired before the client read it'],
  webhookFailures: [CLIENT_METRIC.webhookFailures, 'Webhook attempts the receiver failed'],
  streamChunks: [CLIENT_METRIC.streamChunks, 'Partial outputs received from /stream or streamed chat'],
  arrivalsLate: [CLIENT_METRIC.arrivalsLate, 'Arrivals sent later than openModel.lateAfterMs after their intended time'],
  arrivalsDropped: [CLIENT_METRIC.arrivalsDropped, 'Arrivals never sent: held by the in-flight cap longer than openModel.maxWaitMs'],
  retries429: [CLIENT_METRIC.retries429, 'Requests re-sent after a 429 and a back-off'],
  jobsAccepted: [family(METRIC.jobsAccepted), 'Jobs the API accepted (an id came back); no kind label'],
  jobsRequeued: [family(METRIC.jobsRequeued), '/retry calls that re-queued a FAILED or TIMED_OUT job'],
  webhookAttempts: [family(METRIC.webhookAttempts), 'Webhook attempts by outcome: delivered, failed (retried later), gave-up (the last attempt failed)'],
  sessions: [CLIENT_METRIC.sessions, 'Client sessions by flow and how they ended (unfinished: once the run has ended)'],
  streamRequests: [CLIENT_METRIC.streamRequests, 'Requests whose stream carried content, by streaming flow'],
  streamTokens: [CLIENT_METRIC.streamTokens, 'Output tokens of streamed requests: usage.completion_tokens, else content chunks'],
  streamGoodRequests: [CLIENT_METRIC.streamGoodRequests, "Streamed requests within the flow's goodput targets (flows with goodput only)"],
} as const;

const GAUGES = {
  run: [`${CLIENT_METRIC.run}_info`, 'The run these metrics come from (always 1)'],
  runStartTime: [CLIENT_METRIC.runStartTime, 'When the run started, Unix seconds'],
  runEndTime: [CLIENT_METRIC.runEndTime, 'When the run ended, Unix seconds; absent while it runs'],
  queueJobsMax: [CLIENT_METRIC.queueJobsMax, 'Queue depth in the last /health answer the client read'],
  inFlight: [CLIENT_METRIC.inFlightMax, 'Requests of the operation in flight now'],
  endpointQueueJobs: [CLIENT_METRIC.endpointQueueJobs, "Jobs waiting in the endpoint's queue (the last sample)"],
  endpointJobsInSystem: [CLIENT_METRIC.endpointJobsInSystem, 'Jobs queued or in progress at the endpoint (the last sample)'],
  endpointWorkers: [CLIENT_METRIC.endpointWorkers, "The endpoint's workers by state (the last sample)"],
  endpointWorkersByGpu: [
    CLIENT_METRIC.endpointWorkersByGpu,
    "The endpoint's workers placed on each GPU type, by state (the last sample; endpoints that list gpus)",
  ],
  limit: [CLIENT_METRIC.limit, "The documented limit the scenario's endpoint runs under: rate per second, concurrency, queue throttle depth, workersMax"],
  virtualTime: [METRIC.virtualTime, 'Virtual time since the start of the run (seconds; lockstep runs only)'],
} as const;

const HISTOGRAMS = {
  response: [CLIENT_METRIC.responseSeconds, 'Intended send to answer, seconds (whole run so far)'],
  turnaround: [CLIENT_METRIC.turnaroundSeconds, "A job's intended submission to its terminal status read, seconds (whole run so far)"],
  queueDelay: [CLIENT_METRIC.queueDelaySeconds, "delayTime of terminal status bodies read by the flow's clients, seconds (whole run so far)"],
  execution: [CLIENT_METRIC.executionSeconds, "executionTime of terminal status bodies read by the flow's clients, seconds (whole run so far)"],
  coldStart: [CLIENT_METRIC.coldStartSeconds, 'Wait for a starting worker, seconds (whole run so far)'],
  ttft: [CLIENT_METRIC.ttftSeconds, 'Intended send to the first content chunk of a stream, seconds (whole run so far)'],
  itl: [CLIENT_METRIC.itlSeconds, 'Each gap between consecutive content chunks of a stream, seconds (whole run so far)'],
  tpot: [CLIENT_METRIC.tpotSeconds, '(last - first content chunk) / (tokens - 1) of a stream, seconds (whole run so far)'],
} as const;

/** A histogram family's bucket bounds in seconds: the stream times' finer ones, else serve's. */
const bucketsOf = (key: keyof typeof HISTOGRAMS): readonly number[] =>
  key === 'ttft' || key === 'itl' || key === 'tpot' ? STREAM_BUCKETS_S : DURATION_BUCKETS_S;

const SUMMARIES = {
  service: [CLIENT_METRIC.serviceSeconds, 'Actual send to answer, seconds (whole run so far)'],
  cancelLatency: [CLIENT_METRIC.cancelLatencySeconds, '/cancel sent to the answer CANCELLED, seconds (whole run so far)'],
  webhookLateness: [CLIENT_METRIC.webhookLatenessSeconds, 'Acknowledged webhook delivery minus job end, seconds (whole run so far)'],
  sendLag: [CLIENT_METRIC.sendLagSeconds, 'Actual minus intended send time of every request, seconds (whole run so far)'],
} as const;

export interface Point {
  labels: LabelSet;
  value: number;
}

/** Whole-run histogram so far: `cumulative[j]` observations ≤ bound j of its family's buckets (bucketsOf), seconds. */
export interface HistogramPoint {
  labels: LabelSet;
  cumulative: readonly number[];
  count: number;
  sumSeconds: number;
}

export interface SummaryPoint {
  labels: LabelSet;
  /** [quantile, seconds]. */
  quantiles: readonly (readonly [number, number])[];
  count: number;
  sumSeconds: number;
}

/** Everything one scrape shows; a family left out (or empty) prints no series. */
export interface LiveSnapshot {
  counters: { [K in keyof typeof COUNTERS]?: readonly Point[] };
  gauges: { [K in keyof typeof GAUGES]?: readonly Point[] };
  histograms: { [K in keyof typeof HISTOGRAMS]?: readonly HistogramPoint[] };
  summaries: { [K in keyof typeof SUMMARIES]?: readonly SummaryPoint[] };
}

/**
 * A registry whose every scrape reads `read()` once (the first family asked calls it; the rest of
 * the same scrape reuse it) and shows it with `base` (endpoint, scenario) first on every series.
 */
export function liveRunRegistry(base: LabelSet, read: () => LiveSnapshot): Registry {
  const registry = new Registry();
  let cached: LiveSnapshot | undefined;
  const snapshot = (): LiveSnapshot => {
    if (!cached) {
      cached = read();
      // A scrape asks every family in one synchronous pass: forget the snapshot right after it.
      queueMicrotask(() => (cached = undefined));
    }
    return cached;
  };
  const withBase = (l: LabelSet): LabelSet => ({ ...base, ...l });
  const add = <K extends string, P>(
    table: Record<K, readonly [string, string]>,
    type: MetricType,
    suffix: string,
    pick: (s: LiveSnapshot) => Partial<Record<K, readonly P[]>>,
    samples: (p: P, key: K) => Sample[],
  ) => {
    for (const key of Object.keys(table) as K[]) {
      const [name, help] = table[key];
      new ScrapedMetric(name + suffix, help, type, () => (pick(snapshot())[key] ?? []).flatMap((p) => samples(p, key)), registry);
    }
  };
  add(
    GAUGES,
    'gauge',
    '',
    (s) => s.gauges,
    (p: Point) => [{ labels: withBase(p.labels), value: p.value }],
  );
  add(
    COUNTERS,
    'counter',
    '_total',
    (s) => s.counters,
    (p: Point) => [{ labels: withBase(p.labels), value: p.value }],
  );
  add(
    HISTOGRAMS,
    'histogram',
    '',
    (s) => s.histograms,
    (p: HistogramPoint, key) => histogramSamples(withBase(p.labels), bucketsOf(key), p.cumulative, p.count, p.sumSeconds),
  );
  add(
    SUMMARIES,
    'summary',
    '',
    (s) => s.summaries,
    (p: SummaryPoint) => summarySamples(withBase(p.labels), p.quantiles, p.count, p.sumSeconds),
  );
  registerProcessMemory(registry);
  return registry;
}
