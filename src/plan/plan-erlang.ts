/**
 * Erlang C's figures as plan.json holds them (rounded to 1e-6, so the bytes do not depend on
 * floating-point noise): per row, the M/M/(workersMax × workerConcurrency) prediction; for the
 * recommendation, Erlang C's own smallest workersMax for the queue-delay SLOs. With a batching
 * endpoint (llm.engine) both say `notModelled: 'batching'` and give no figure. With a closed flow
 * submitting jobs there is no arrival rate: a row's prediction is null and the recommendation's
 * arrivalsPerSec null (and, on a batching endpoint, it says `notModelled: 'batching'` as well).
 * mmc-reference.ts.
 */
import type { Threshold } from '../report/thresholds.js';
import type { Knobs } from './grid.js';
import { concurrencyAt, erlangSmallestWorkers, noWorkersShare, predictAt, type MmcInputs, type MmcPrediction } from './mmc-reference.js';

const r6 = (v: number) => Math.round(v * 1e6) / 1e6;

/** What plan.json's recommendation.erlangC holds. */
export interface RecommendationErlangC {
  /** Erlang C's smallest workersMax meeting the queue-delay SLOs (null: no such SLO, no arrival rate, or batching). */
  workersMax: number | null;
  /** The scenario's mean job arrivals per second; null: a closed flow submits jobs (its rate is an output). */
  arrivalsPerSec: number | null;
  meanJobMs: number;
  /** Jobs per worker the workersMax is for (given when a worker may hold more than one job). */
  workerConcurrency?: number;
  /** Erlang C's smallest number of job slots (workersMax × workerConcurrency), with workerConcurrency. */
  servers?: number | null;
  /** The endpoint batches a worker's jobs: Erlang C gives no answer. */
  notModelled?: 'batching';
}

/** A point is a load-balancing endpoint: its grid's `type` says so, else the scenario's. */
export const balancerAt = (m: MmcInputs, knobs: Knobs = {}) => (knobs.type === undefined ? m.balancer === true : knobs.type === 'load-balancer');

/**
 * A row's prediction; null: no arrival rate (a closed flow submits jobs). A load-balancing point's
 * also says the share of requests M/M/c has waiting past the balancer's 2 min (noWorkersShare).
 */
export function rowErlangC(m: MmcInputs, workersMax: number, knobs: Knobs = {}): MmcPrediction | null {
  const c = concurrencyAt(m, knobs);
  const p = predictAt(m, workersMax, c);
  if (p === null || p.stable === null) return p;
  const servers = p.servers === undefined ? {} : { servers: p.servers };
  return p.stable
    ? {
        stable: true,
        ...servers,
        utilisation: r6(p.utilisation),
        probabilityOfWaiting: r6(p.probabilityOfWaiting),
        meanQueueDelayMs: r6(p.meanQueueDelayMs),
        p95QueueDelayMs: r6(p.p95QueueDelayMs),
        ...(balancerAt(m, knobs) ? { noWorkersShare: r6(noWorkersShare(m, workersMax * c, p.probabilityOfWaiting)) } : {}),
      }
    : { stable: false, ...servers, utilisation: r6(p.utilisation) };
}

/**
 * Erlang C's answer beside the recommendation, at the jobs per worker of `knobs` (the recommended
 * point's, or the first grid line's without one). `perWorker`: some point runs more than one job
 * per worker (then the jobs per worker and the slots are given).
 */
export function recommendationErlangC(m: MmcInputs, slos: readonly Threshold[], knobs: Knobs, perWorker: boolean): RecommendationErlangC {
  const c = concurrencyAt(m, knobs);
  const smallest = erlangSmallestWorkers(m, slos, c);
  return {
    workersMax: smallest?.workersMax ?? null,
    arrivalsPerSec: m.arrivalsPerSec === null ? null : r6(m.arrivalsPerSec),
    meanJobMs: r6(m.meanJobMs),
    ...(perWorker && !m.batching ? { workerConcurrency: c, servers: smallest?.servers ?? null } : {}),
    ...(m.batching ? { notModelled: 'batching' as const } : {}),
  };
}
