/**
 * Turns the core's domain events into metrics. Every duration comes from virtual time carried by
 * the events (never a wall-clock timer), so the same seed gives the same histograms.
 */
import type { SimEvent, SimEventListener } from '../sim/events.js';
import { BatchedCounter } from './batched-counter.js';
import type { Metrics } from './registry.js';

/** What the collector needs of a simulator: its event bus and clock. */
export interface EventSource {
  bus: { on(l: SimEventListener): () => void };
  readonly nowMs: number;
}

/** Point-in-time values read at scrape time (queue length is not cheaply derived from events). */
export type QueueSnapshot = () => Iterable<[endpointId: string, queued: number]>;

const acceptedLabels = (endpoint: string, kind: string) => ({ endpoint, kind });

/** Subscribes `m` to `src`; returns the unsubscribe function. */
export function collectSimMetrics(src: EventSource, m: Metrics, queues?: QueueSnapshot): () => void {
  // The commonest event (one per accepted job) is summed locally and flushed at scrape time.
  const accepted = new BatchedCounter(m.jobsAccepted);
  m.beforeScrape.push(() => {
    accepted.flush();
    m.virtualTime.set(src.nowMs / 1000);
    if (queues) for (const [endpoint, n] of queues()) m.queueJobs.set({ endpoint }, n);
  });
  return src.bus.on((e) => {
    if (e.type === 'job.accepted') accepted.inc(e.endpointId, e.kind, acceptedLabels);
    else observe(m, e);
  });
}

export function observe(m: Metrics, e: SimEvent): void {
  const endpoint = e.endpointId;
  switch (e.type) {
    case 'job.accepted':
      m.jobsAccepted.inc({ endpoint, kind: e.kind });
      break;
    case 'job.started':
      m.jobDelay.observe({ endpoint }, e.delayTimeMs / 1000);
      break;
    case 'job.finished':
      m.jobsFinished.inc({ endpoint, status: e.status });
      if (e.executionTimeMs !== undefined) m.jobExecution.observe({ endpoint, status: e.status }, e.executionTimeMs / 1000);
      break;
    case 'job.requeued':
      m.jobsRequeued.inc({ endpoint, reason: e.reason });
      break;
    case 'job.expired':
      m.jobsExpired.inc({ endpoint, reason: e.reason });
      break;
    case 'job.purged':
      m.jobsPurged.inc({ endpoint });
      break;
    case 'request.limited':
      m.requestsLimited.inc({ endpoint, operation: e.operation, cause: e.cause });
      break;
    case 'webhook.attempt':
      m.webhookAttempts.inc({ endpoint, outcome: e.outcome });
      break;
    case 'worker.state':
      m.workerTransitions.inc({ endpoint, from: e.from, to: e.to });
      if (e.from !== 'none') m.workers.dec({ endpoint, state: e.from });
      if (e.to !== 'stopped') m.workers.inc({ endpoint, state: e.to });
      break;
    case 'job.progressed':
      break;
  }
}
