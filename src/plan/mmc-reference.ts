/**
 * Erlang C beside a sweep: the M/M/c prediction for each workersMax from the scenario's mean
 * arrival rate (of job-submitting flows) and mean job time, and Erlang C's own smallest c for the
 * queue-delay SLOs. Pure.
 *
 * Jobs per worker: a worker of `workerConcurrency` c runs up to c jobs at once, each as if alone
 * (no engine), so a job waits only when all workersMax × c slots are taken: the queue is exactly
 * M/M/(workersMax × c), and the servers here are job slots. A batching worker (`llm.engine`) is
 * another matter: a job's time depends on how many share its batch, which M/M/c cannot express,
 * so no prediction is made (`stable: null`) rather than a misleading one.
 *
 * A closed flow that submits jobs leaves Erlang C without an input: its rate is its users over a
 * cycle that includes the queue delay Erlang C would predict, so there is no rate fixed in
 * advance (arrivalsPerSec null, no prediction: null). That is checked first: a closed flow on a
 * batching endpoint has no prediction (null) for want of a rate, and `batching` still says the
 * endpoint batches.
 */
import { meanJobMs } from '../contract/llm-config.js';
import { NO_WORKER_WAIT_MS } from '../contract/endpoint-presets.js';
import { expectedArrivals, isClosed } from '../load/arrivals/registry.js';
import { meanTurns, submitsJob } from '../load/behaviours/registry.js';
import type { Scenario } from '../load/scenario/schema.js';
import type { Threshold } from '../report/thresholds.js';
import { erlangC } from './erlang-c.js';
import { flowJobTime, meanJobTime } from './flow-job-time.js';

export interface MmcInputs {
  /** Mean job arrivals per second over the traffic phase; null: a closed flow submits jobs (none fixed in advance). */
  arrivalsPerSec: number | null;
  /**
   * Mean job time (ms); with an engine, of a job alone in its batch (contract meanJobMs). Over the
   * flows' expected jobs, a token trace's flow at its own prompt and answer lengths (flow-job-time.ts).
   */
  meanJobMs: number;
  /** The scenario's endpoint.workerConcurrency, when above 1 (absent: 1, one job per worker). */
  workerConcurrency?: number;
  /** The endpoint batches a worker's jobs (llm.engine): Erlang C does not model it. */
  batching?: true;
  /** The scenario's endpoint is a load-balancing one (a grid's `type` may say otherwise at a point). */
  balancer?: true;
}

export function mmcInputs(sc: Scenario): MmcInputs {
  const endpointJobMs = meanJobMs(sc.endpoint);
  // The optional fields only when they differ from one job per worker: a plan of such an endpoint keeps its bytes.
  const c = sc.endpoint.workerConcurrency;
  const perWorker = {
    ...(c > 1 ? { workerConcurrency: c } : {}),
    ...(sc.endpoint.llm?.engine ? { batching: true as const } : {}),
    ...(sc.endpoint.type === 'load-balancer' ? { balancer: true as const } : {}),
  };
  if (closedJobFlows(sc).length) return { arrivalsPerSec: null, meanJobMs: endpointJobMs, ...perWorker };
  const flows = sc.traffic
    .filter((f) => submitsJob(f.client))
    // A multi-turn chat's session sends a job per turn: λ counts jobs, as the dry run does.
    .map((f) => ({
      name: f.name,
      jobs: expectedArrivals(f.arrival, sc.durationMs, endpointJobMs) * meanTurns(f.client),
      time: flowJobTime(sc.endpoint, f.arrival, f.client),
    }));
  const jobs = flows.reduce((n, f) => n + f.jobs, 0);
  // A token trace's jobs last what its lengths give: the mean is over every flow's jobs (flow-job-time.ts).
  return { arrivalsPerSec: (jobs * 1000) / sc.durationMs, meanJobMs: meanJobTime(sc, flows), ...perWorker };
}

/** The job-submitting closed flows of a scenario, by name: why Erlang C has no rate to start from. */
export function closedJobFlows(sc: Scenario): string[] {
  return sc.traffic.filter((f) => submitsJob(f.client) && isClosed(f.arrival)).map((f) => f.name);
}

/**
 * The prediction for c servers; `stable: false` when λ ≥ cμ (the queue grows without bound);
 * `stable: null` when the endpoint batches (no prediction). `servers`: the job slots
 * (workersMax × workerConcurrency), given when a worker holds more than one job.
 */
export type MmcPrediction =
  | {
      stable: true;
      servers?: number;
      utilisation: number;
      probabilityOfWaiting: number;
      meanQueueDelayMs: number;
      p95QueueDelayMs: number;
      /** A load-balancing point: the share of requests that wait past 2 min and get "no workers available" (noWorkersShare). */
      noWorkersShare?: number;
    }
  | { stable: false; servers?: number; utilisation: number }
  | { stable: null; notModelled: 'batching' };
/** A prediction with figures (no batching). */
export type MmcFigures = Exclude<MmcPrediction, { stable: null }>;

/** Jobs per worker at a point: its grid's workerConcurrency, else the scenario's. */
export function concurrencyAt(m: MmcInputs, knobs: { workerConcurrency?: number | string } = {}): number {
  return knobs.workerConcurrency !== undefined ? Number(knobs.workerConcurrency) : (m.workerConcurrency ?? 1);
}

/**
 * The prediction at a point: M/M/(workersMax × c); null without an arrival rate (a closed flow,
 * checked first), `notModelled` for a batching endpoint.
 */
export function predictAt(m: MmcInputs, workersMax: number, c: number): MmcPrediction | null {
  if (m.arrivalsPerSec === null) return null;
  if (m.batching) return { stable: null, notModelled: 'batching' };
  const p = predict(m, workersMax * c)!;
  return c > 1 ? { ...p, servers: workersMax * c } : p;
}

/**
 * Erlang C's smallest workersMax at c jobs per worker: its smallest number of slots s, then
 * ceil(s / c) (a queue delay only falls as slots are added, so no smaller workersMax meets the
 * SLOs). Null: no queue-delay SLO, none up to the bound, no arrival rate (a closed flow) or a
 * batching endpoint.
 */
export function erlangSmallestWorkers(m: MmcInputs, slos: readonly Threshold[], c: number): { workersMax: number; servers: number } | null {
  if (m.batching) return null;
  const s = erlangSmallestC(m, slos);
  return s === null ? null : { workersMax: Math.ceil(s / c), servers: s };
}

/**
 * A load-balancing endpoint's share of requests answered "no workers available": M/M/c's
 * P(Wq > 2 min) = C e^{-(cμ-λ)·120 s}, `pWait` being C. An approximation: M/M/c keeps in its queue
 * the requests the balancer gives up on, so under load it overstates the waits behind them.
 */
export function noWorkersShare(m: MmcInputs, servers: number, pWait: number): number {
  if (m.arrivalsPerSec === null || !(m.meanJobMs > 0)) return 0;
  return pWait * Math.exp(-(servers / m.meanJobMs - m.arrivalsPerSec / 1000) * NO_WORKER_WAIT_MS);
}

/** The q-quantile of the queue wait: P(Wq > t) = C e^{-(cμ-λ)t}, so t = ln(C / (1-q)) / (cμ-λ), or 0. */
function waitQuantileMs(c: number, lambdaPerMs: number, muPerMs: number, pWait: number, q: number): number {
  return pWait <= 1 - q ? 0 : Math.log(pWait / (1 - q)) / (c * muPerMs - lambdaPerMs);
}

/** The prediction for c servers; null without an arrival rate (a closed flow). */
export function predict(m: MmcInputs, c: number): MmcFigures | null {
  if (m.arrivalsPerSec === null) return null;
  const lambda = m.arrivalsPerSec / 1000;
  const mu = 1 / m.meanJobMs;
  const utilisation = lambda / (c * mu);
  if (!(m.meanJobMs > 0) || !(lambda > 0)) return { stable: true, utilisation: 0, probabilityOfWaiting: 0, meanQueueDelayMs: 0, p95QueueDelayMs: 0 };
  if (utilisation >= 1) return { stable: false, utilisation };
  const r = erlangC({ servers: c, arrivalRate: lambda, serviceRate: mu });
  return {
    stable: true,
    utilisation,
    probabilityOfWaiting: r.probabilityOfWaiting,
    meanQueueDelayMs: r.meanQueueWait,
    p95QueueDelayMs: waitQuantileMs(c, lambda, mu, r.probabilityOfWaiting, 0.95),
  };
}

const QUEUE_STAT = /^queue_delay_(mean|p50|p90|p95|p99)_ms$/;

/** The SLOs Erlang C can answer: an upper bound on a queue-delay mean or percentile, over the whole run. */
export function queueDelaySlos(slos: readonly Threshold[]): Threshold[] {
  return slos.filter((t) => QUEUE_STAT.test(t.metric) && t.everyMs === undefined && (t.cmp === '<' || t.cmp === '<='));
}

/** The queue-delay statistic Erlang C predicts for c workers (ms) at λ jobs per ms; Infinity when unstable. */
function predictedStat(lambda: number, meanJobMs: number, c: number, metric: string): number {
  const stat = QUEUE_STAT.exec(metric)![1]!;
  const mu = 1 / meanJobMs;
  if (!(lambda > 0) || !(meanJobMs > 0)) return 0;
  if (lambda >= c * mu) return Infinity;
  const r = erlangC({ servers: c, arrivalRate: lambda, serviceRate: mu });
  if (stat === 'mean') return r.meanQueueWait;
  return waitQuantileMs(c, lambda, mu, r.probabilityOfWaiting, Number(stat.slice(1)) / 100);
}

/** Erlang C's smallest c meeting every queue-delay SLO; null when there is none, none up to `maxC`, or no arrival rate. */
export function erlangSmallestC(m: MmcInputs, slos: readonly Threshold[], maxC = 100_000): number | null {
  const qs = queueDelaySlos(slos);
  if (!qs.length || m.arrivalsPerSec === null) return null;
  const lambda = m.arrivalsPerSec / 1000;
  const start = m.meanJobMs > 0 ? Math.max(1, Math.floor(lambda * m.meanJobMs) + 1) : 1;
  const meets = (c: number) =>
    qs.every((t) => {
      const v = predictedStat(lambda, m.meanJobMs, c, t.metric);
      return t.cmp === '<' ? v < t.value : v <= t.value;
    });
  for (let c = start; c <= maxC; c++) if (meets(c)) return c;
  return null;
}
