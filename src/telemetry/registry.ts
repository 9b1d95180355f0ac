/**
 * A prom-client `Registry` per run (or per `serve` process) with every loadlab metric on it.
 * Nothing is registered globally, so two runs in one process never mix their numbers. The
 * process's memory (process-memory.ts) is on it too, read only when scraped.
 */
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import { BatchedHistogram } from './batched-histogram.js';
import { registerProcessMemory } from './process-memory.js';
import { DURATION_BUCKETS_S, METRIC } from '../contract/metric-names.js';

export interface Metrics {
  registry: Registry;
  jobsAccepted: Counter<'endpoint' | 'kind'>;
  jobsFinished: Counter<'endpoint' | 'status'>;
  jobsRequeued: Counter<'endpoint' | 'reason'>;
  jobsExpired: Counter<'endpoint' | 'reason'>;
  jobsPurged: Counter<'endpoint'>;
  /** Observed on every job (its start and end): batched, not prom-client's `Histogram`. */
  jobDelay: BatchedHistogram<'endpoint'>;
  jobExecution: BatchedHistogram<'endpoint' | 'status'>;
  requestsLimited: Counter<'endpoint' | 'operation' | 'cause'>;
  webhookAttempts: Counter<'endpoint' | 'outcome'>;
  workerTransitions: Counter<'endpoint' | 'from' | 'to'>;
  workers: Gauge<'endpoint' | 'state'>;
  queueJobs: Gauge<'endpoint'>;
  jobsInProgress: Gauge<'endpoint'>;
  balancerFailed: Counter<'endpoint' | 'cause'>;
  /** Set at scrape time by whoever owns the endpoints (server.ts): load-balancing endpoints only. */
  balancerPending: Gauge<'endpoint'>;
  virtualTime: Gauge;
  httpRequests: Counter<'route' | 'status'>;
  httpRequestDuration: Histogram<'route'>;
  httpRequestBodyBytes: Counter;
  /** Run before every scrape to refresh point-in-time gauges. */
  beforeScrape: (() => void)[];
}

export function createMetrics(): Metrics {
  const registry = new Registry();
  const registers = [registry];
  const counter = <L extends string>(name: string, help: string, labelNames: L[]) => new Counter<L>({ name, help, labelNames, registers });
  const histogram = <L extends string>(name: string, help: string, labelNames: L[]) =>
    new Histogram<L>({ name, help, labelNames, buckets: DURATION_BUCKETS_S, registers });
  const beforeScrape: (() => void)[] = [];
  const metrics: Metrics = {
    registry,
    beforeScrape,
    // First on the registry: prom-client collects in registration order, and this one refreshes the others.
    virtualTime: new Gauge({
      name: METRIC.virtualTime,
      help: 'Virtual time since the start (seconds)',
      registers,
      // prom-client calls `collect` of each metric on scrape; this one refreshes all point-in-time values.
      collect: () => {
        for (const f of beforeScrape) f();
      },
    }),
    jobsAccepted: counter(METRIC.jobsAccepted, 'Jobs accepted into the queue', ['endpoint', 'kind']),
    jobsFinished: counter(METRIC.jobsFinished, 'Jobs that reached a terminal status', ['endpoint', 'status']),
    jobsRequeued: counter(METRIC.jobsRequeued, 'Jobs sent back to the queue', ['endpoint', 'reason']),
    jobsExpired: counter(METRIC.jobsExpired, 'Jobs removed by ttl or end of retention', ['endpoint', 'reason']),
    jobsPurged: counter(METRIC.jobsPurged, 'Queued jobs removed by /purge-queue', ['endpoint']),
    jobDelay: new BatchedHistogram(METRIC.jobDelay, 'Time in the queue before a start (virtual seconds)', DURATION_BUCKETS_S, registry),
    jobExecution: new BatchedHistogram(METRIC.jobExecution, 'Running time until a terminal status (virtual seconds)', DURATION_BUCKETS_S, registry),
    requestsLimited: counter(METRIC.requestsLimited, 'Requests answered 429, by limit', ['endpoint', 'operation', 'cause']),
    webhookAttempts: counter(METRIC.webhookAttempts, 'Webhook attempts by outcome', ['endpoint', 'outcome']),
    workerTransitions: counter(METRIC.workerTransitions, 'Worker state transitions', ['endpoint', 'from', 'to']),
    workers: new Gauge({ name: METRIC.workers, help: 'Workers per state', labelNames: ['endpoint', 'state'], registers }),
    queueJobs: new Gauge({ name: METRIC.queueJobs, help: 'Jobs waiting in the queue', labelNames: ['endpoint'], registers }),
    jobsInProgress: new Gauge({ name: METRIC.jobsInProgress, help: 'Jobs held by workers (in progress)', labelNames: ['endpoint'], registers }),
    balancerFailed: counter(METRIC.balancerFailed, "Load-balancing endpoints' requests ended by the balancer, by cause", ['endpoint', 'cause']),
    balancerPending: new Gauge({
      name: METRIC.balancerPending,
      help: "Load-balancing endpoints' requests waiting at the balancer for a worker",
      labelNames: ['endpoint'],
      registers,
    }),
    httpRequests: counter(METRIC.httpRequests, 'HTTP requests answered, by route and status', ['route', 'status']),
    httpRequestDuration: histogram(METRIC.httpRequestDuration, 'Arrival to answer of HTTP requests held past their arrival (virtual seconds)', ['route']),
    httpRequestBodyBytes: counter(METRIC.httpRequestBodyBytes, 'Bytes of request bodies read', []),
  };
  registerProcessMemory(registry);
  return metrics;
}
