/**
 * Erlang C beside a sweep: the M/M/c prediction for each workersMax from the scenario's mean
 * arrival rate (of job-submitting flows) and mean job time, and Erlang C's own smallest c for the
 * queue-delay SLOs. A closed flow that submits jobs leaves Erlang C without an input: its rate is
 * its users over a cycle that includes the queue delay Erlang C would predict, so there is no
 * rate fixed in advance (arrivalsPerSec null, no prediction). Pure.
 */
import { meanJobMs } from '../contract/llm-config.js';
import { expectedArrivals, isClosed } from '../load/arrivals/registry.js';
import { submitsJob } from '../load/behaviours/registry.js';
import type { Scenario } from '../load/scenario/schema.js';
import type { Threshold } from '../report/thresholds.js';
import { erlangC } from './erlang-c.js';

export interface MmcInputs {
  /** Mean job arrivals per second over the traffic phase; null: a closed flow submits jobs (none fixed in advance). */
  arrivalsPerSec: number | null;
  /** Mean job time (ms). */
  meanJobMs: number;
}

export function mmcInputs(sc: Scenario): MmcInputs {
  const flows = sc.traffic.filter((f) => submitsJob(f.client));
  const jobMs = meanJobMs(sc.endpoint);
  if (flows.some((f) => isClosed(f.arrival))) return { arrivalsPerSec: null, meanJobMs: jobMs };
  const jobs = flows.reduce((n, f) => n + expectedArrivals(f.arrival, sc.durationMs, jobMs), 0);
  return { arrivalsPerSec: (jobs * 1000) / sc.durationMs, meanJobMs: jobMs };
}

/** The job-submitting closed flows of a scenario, by name: why Erlang C has no rate to start from. */
export function closedJobFlows(sc: Scenario): string[] {
  return sc.traffic.filter((f) => submitsJob(f.client) && isClosed(f.arrival)).map((f) => f.name);
}

/** The prediction for c workers; `stable: false` when λ ≥ cμ (the queue grows without bound). */
export type MmcPrediction =
  | { stable: true; utilisation: number; probabilityOfWaiting: number; meanQueueDelayMs: number; p95QueueDelayMs: number }
  | { stable: false; utilisation: number };

/** The q-quantile of the queue wait: P(Wq > t) = C e^{-(cμ-λ)t}, so t = ln(C / (1-q)) / (cμ-λ), or 0. */
function waitQuantileMs(c: number, lambdaPerMs: number, muPerMs: number, pWait: number, q: number): number {
  return pWait <= 1 - q ? 0 : Math.log(pWait / (1 - q)) / (c * muPerMs - lambdaPerMs);
}

/** The prediction for c workers; null without an arrival rate (a closed flow). */
export function predict(m: MmcInputs, c: number): MmcPrediction | null {
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

/** The queue-delay statistic Erlang C predicts for c workers (ms); Infinity when unstable. */
function predictedStat(m: MmcInputs & { arrivalsPerSec: number }, c: number, metric: string): number {
  const stat = QUEUE_STAT.exec(metric)![1]!;
  const lambda = m.arrivalsPerSec / 1000;
  const mu = 1 / m.meanJobMs;
  if (!(lambda > 0) || !(m.meanJobMs > 0)) return 0;
  if (lambda >= c * mu) return Infinity;
  const r = erlangC({ servers: c, arrivalRate: lambda, serviceRate: mu });
  if (stat === 'mean') return r.meanQueueWait;
  return waitQuantileMs(c, lambda, mu, r.probabilityOfWaiting, Number(stat.slice(1)) / 100);
}

/** Erlang C's smallest c meeting every queue-delay SLO; null when there is none, none up to `maxC`, or no arrival rate. */
export function erlangSmallestC(m: MmcInputs, slos: readonly Threshold[], maxC = 100_000): number | null {
  const qs = queueDelaySlos(slos);
  if (!qs.length || m.arrivalsPerSec === null) return null;
  const known = { ...m, arrivalsPerSec: m.arrivalsPerSec };
  const lambda = m.arrivalsPerSec / 1000;
  const start = m.meanJobMs > 0 ? Math.max(1, Math.floor(lambda * m.meanJobMs) + 1) : 1;
  for (let c = start; c <= maxC; c++) {
    if (qs.every((t) => (t.cmp === '<' ? predictedStat(known, c, t.metric) < t.value : predictedStat(known, c, t.metric) <= t.value))) return c;
  }
  return null;
}
