/**
 * An endpoint's series whose label values are known when it is created, exported at 0 from the
 * start (Prometheus's instrumentation practice for counters): a panel for something that has not
 * happened yet shows 0, not "No data", and `rate()` and `increase()` see the first event.
 *
 * Zeroed per endpoint: jobs accepted by kind, finished by terminal status, re-queued by reason,
 * expired by reason, purged; 429s by operation and cause for every limit the endpoint's config
 * has; webhook attempts by outcome; the workers gauge by state; on a load-balancing endpoint, the
 * balancer's failed requests by cause and its pending requests. Not zeroed: worker transitions
 * (a from × to product, mostly impossible pairs) and serve's HTTP counters (their status values
 * are not known in advance).
 */
import type { EndpointConfig } from '../contract/endpoint-config.js';
import { DEFAULT_LIMITS, OPERATIONS, type Operation } from '../contract/operations.js';
import { BALANCER_CAUSES, type JobKind, type JobStatus, type LimitCause, type SimEvent, type WorkerState } from '../contract/sim-events.js';
import type { Metrics } from './registry.js';

type Terminal = Exclude<JobStatus, 'IN_QUEUE' | 'IN_PROGRESS'>;
type Requeue = Extract<SimEvent, { type: 'job.requeued' }>['reason'];
type Expiry = Extract<SimEvent, { type: 'job.expired' }>['reason'];
type Outcome = Extract<SimEvent, { type: 'webhook.attempt' }>['outcome'];

// Records over the label types, so the compiler asks for a value added to any of them.
/** The kinds of job each kind of endpoint takes, and the operations whose jobs a full queue refuses. */
const QUEUE_KINDS: readonly JobKind[] = ['run', 'runsync', 'openai'];
const BALANCER_KINDS: readonly JobKind[] = ['lb', 'openai'];
const QUEUED_OPS: ReadonlySet<Operation> = new Set(['run', 'runsync', 'openai']);
const TERMINAL: Record<Terminal, 0> = { COMPLETED: 0, FAILED: 0, CANCELLED: 0, TIMED_OUT: 0 };
const REQUEUE: Record<Requeue, 0> = { crash: 0, retry: 0 };
const EXPIRY: Record<Expiry, 0> = { retention: 0, ttl: 0 };
const OUTCOMES: Record<Outcome, 0> = { delivered: 0, failed: 0, 'gave-up': 0 };
const STATES: Record<WorkerState, 0> = { initializing: 0, idle: 0, running: 0, throttled: 0, unhealthy: 0 };

/** Exports `cfg`'s endpoint's known series at 0 (call once, when the endpoint is created). */
export function zeroEndpointSeries(m: Metrics, cfg: EndpointConfig): void {
  const endpoint = cfg.id;
  for (const kind of cfg.type === 'load-balancer' ? BALANCER_KINDS : QUEUE_KINDS) m.jobsAccepted.inc({ endpoint, kind }, 0);
  for (const status of Object.keys(TERMINAL)) m.jobsFinished.inc({ endpoint, status }, 0);
  for (const reason of Object.keys(REQUEUE)) m.jobsRequeued.inc({ endpoint, reason }, 0);
  for (const reason of Object.keys(EXPIRY)) m.jobsExpired.inc({ endpoint, reason }, 0);
  m.jobsPurged.inc({ endpoint }, 0);
  for (const [operation, cause] of limitedLabels(cfg)) m.requestsLimited.inc({ endpoint, operation, cause }, 0);
  for (const outcome of Object.keys(OUTCOMES)) m.webhookAttempts.inc({ endpoint, outcome }, 0);
  for (const state of Object.keys(STATES)) m.workers.inc({ endpoint, state }, 0);
  if (cfg.type === 'load-balancer') {
    for (const cause of BALANCER_CAUSES) m.balancerFailed.inc({ endpoint, cause }, 0);
    m.balancerPending.set({ endpoint }, 0);
  }
}

/**
 * The (operation, cause) pairs a 429 of this endpoint can carry: concurrency and rate where the
 * operation has that limit, queue throttling on the job-creating operations; none with limits off.
 */
export function limitedLabels(cfg: EndpointConfig): [Operation, LimitCause][] {
  if (!cfg.limits.enabled) return [];
  const pairs: [Operation, LimitCause][] = [];
  for (const op of OPERATIONS) {
    const o = cfg.limits.operations[op] ?? {};
    const d = DEFAULT_LIMITS[op];
    if ((o.concurrency !== undefined ? o.concurrency : d.concurrency) !== null) pairs.push([op, 'concurrency']);
    if ((o.rate !== undefined ? o.rate : d.rate) !== null) pairs.push([op, 'rate']);
    if (QUEUED_OPS.has(op) && cfg.type !== 'load-balancer') pairs.push([op, 'queue']);
  }
  return pairs;
}
