/**
 * Turns the core's domain events into metrics. Every duration comes from virtual time carried by
 * the events (never a wall-clock timer), so the same seed gives the same histograms.
 */
import type { SimEvent, SimEventListener } from '../contract/sim-events.js';
import type { WorkerState } from '../contract/sim-events.js';
import { BatchedCounter } from './batched-counter.js';
import type { Metrics } from './registry.js';

/** What the collector needs of a simulator: its event bus and clock. */
export interface EventSource {
  bus: { on(l: SimEventListener): () => void };
  readonly nowMs: number;
}

/** Point-in-time values read at scrape time (queue length and jobs in progress are not cheaply derived from events). */
export type QueueSnapshot = () => Iterable<[endpointId: string, queued: number, inProgress: number]>;

const acceptedLabels = (endpoint: string, kind: string) => ({ endpoint, kind });
const finishedLabels = (endpoint: string, status: string) => ({ endpoint, status });
const endpointLabels = (endpoint: string) => ({ endpoint });
const reasonLabels = (endpoint: string, reason: string) => ({ endpoint, reason });
/** Worker states as numbers: a transition is `from × 8 + to`, a state of the gauge its index. */
const STATES: readonly (WorkerState | 'none' | 'stopped')[] = ['none', 'initializing', 'idle', 'running', 'throttled', 'unhealthy', 'stopped'];
const transitionLabels = (endpoint: string, c: number) => ({ endpoint, from: STATES[c >> 3]!, to: STATES[c & 7]! });
const stateLabels = (endpoint: string, c: number) => ({ endpoint, state: STATES[c]! });

/** Subscribes `m` to `src`; returns the unsubscribe function. */
export function collectSimMetrics(src: EventSource, m: Metrics, queues?: QueueSnapshot): () => void {
  // The events of every job (accepted, finished, its worker's state changes) are summed locally
  // and flushed at scrape time: through prom-client, they cost several µs a job (label hashing).
  const accepted = new BatchedCounter(m.jobsAccepted);
  const finished = new BatchedCounter(m.jobsFinished);
  const transitions = new BatchedCounter(m.workerTransitions);
  const workers = new BatchedCounter(m.workers);
  const expired = new BatchedCounter(m.jobsExpired);
  m.beforeScrape.push(() => {
    accepted.flush();
    expired.flush();
    finished.flush();
    transitions.flush();
    workers.flush();
    m.virtualTime.set(src.nowMs / 1000);
    if (queues)
      for (const [endpoint, n, inProgress] of queues()) {
        m.queueJobs.set({ endpoint }, n);
        m.jobsInProgress.set({ endpoint }, inProgress);
      }
  });
  return src.bus.on((e) => {
    switch (e.type) {
      case 'job.accepted':
        return accepted.inc(e.endpointId, e.kind, acceptedLabels);
      case 'job.started':
        return m.jobDelay.observe(e.endpointId, 0, endpointLabels, e.delayTimeMs / 1000);
      case 'job.expired':
        return expired.inc(e.endpointId, e.reason, reasonLabels);
      case 'job.finished':
        finished.inc(e.endpointId, e.status, finishedLabels);
        if (e.executionTimeMs !== undefined) m.jobExecution.observe(e.endpointId, e.status, finishedLabels, e.executionTimeMs / 1000);
        return;
      case 'worker.state': {
        const from = STATES.indexOf(e.from);
        const to = STATES.indexOf(e.to);
        transitions.inc(e.endpointId, from * 8 + to, transitionLabels);
        if (e.from !== 'none') workers.inc(e.endpointId, from, stateLabels, -1);
        if (e.to !== 'stopped') workers.inc(e.endpointId, to, stateLabels, 1);
        return;
      }
      default:
        observe(m, e);
    }
  });
}

/** The rarer events, straight into prom-client. */
function observe(m: Metrics, e: SimEvent): void {
  const endpoint = e.endpointId;
  switch (e.type) {
    case 'job.requeued':
      m.jobsRequeued.inc({ endpoint, reason: e.reason });
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
    case 'balancer.failed':
      m.balancerFailed.inc({ endpoint, cause: e.cause });
      break;
    default:
      break;
  }
}
