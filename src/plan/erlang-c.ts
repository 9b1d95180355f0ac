/**
 * Erlang C: the steady state of an M/M/c queue (Poisson arrivals, exponential service, c identical
 * servers, unbounded FIFO queue). It is the reference `plan` compares simulated sweeps with, and the
 * oracle the simulator's tests check queue delay against.
 *
 * Units: `arrivalRate` and `serviceRate` are jobs per the same time unit (e.g. per ms); times come
 * back in that unit's reciprocal (ms). `fromMs` takes the means people measure instead.
 * Pure: no I/O, no clock.
 */

import { LoadlabError } from '../contract/loadlab-error.js';

export interface MmcInput {
  /** Servers (workers), an integer >= 1. */
  servers: number;
  /** λ: arrivals per time unit, > 0. */
  arrivalRate: number;
  /** μ: completions per time unit of one busy server, > 0. */
  serviceRate: number;
}

export interface MmcResult {
  /** Offered load a = λ/μ, in Erlangs (busy servers on average). */
  offeredLoad: number;
  /** ρ = λ/(cμ), the fraction of time a server is busy; < 1 for a steady state. */
  utilisation: number;
  /** C(c, a): probability that an arriving job waits (finds every server busy). */
  probabilityOfWaiting: number;
  /** Wq: mean time in the queue over all jobs (those that do not wait count 0). */
  meanQueueWait: number;
  /** W = Wq + 1/μ: mean time in the system. */
  meanResponseTime: number;
  /** Lq = λ Wq: mean number of jobs waiting. */
  meanQueueLength: number;
  /** L = λ W: mean number of jobs in the system (Little's law). */
  meanInSystem: number;
}

export type ErlangCError = 'ERLANG_ERR_SERVERS' | 'ERLANG_ERR_RATE' | 'ERLANG_ERR_UNSTABLE';

/** Thrown on inputs with no steady state or no meaning; `code` is stable, the message is not. */
export class ErlangCInputError extends LoadlabError {
  declare readonly code: ErlangCError;
  constructor(code: ErlangCError, message: string) {
    super(code, message);
  }
}

/**
 * Erlang B blocking probability B(c, a) by the recurrence B(k) = a B(k-1) / (k + a B(k-1)),
 * B(0) = 1: stable for thousands of servers, where a^c / c! would overflow.
 */
export function erlangB(servers: number, offeredLoad: number): number {
  let b = 1;
  for (let k = 1; k <= servers; k++) b = (offeredLoad * b) / (k + offeredLoad * b);
  return b;
}

/** Steady-state figures of an M/M/c queue; throws `ErlangCInputError` when there is none. */
export function erlangC(input: MmcInput): MmcResult {
  const { servers: c, arrivalRate: lambda, serviceRate: mu } = input;
  if (!Number.isInteger(c) || c < 1) throw new ErlangCInputError('ERLANG_ERR_SERVERS', `servers must be an integer >= 1, got ${c}`);
  if (!(lambda > 0) || !(mu > 0) || !Number.isFinite(lambda) || !Number.isFinite(mu)) {
    throw new ErlangCInputError('ERLANG_ERR_RATE', `rates must be finite and > 0, got λ=${lambda} μ=${mu}`);
  }
  const a = lambda / mu;
  const rho = a / c;
  if (rho >= 1) throw new ErlangCInputError('ERLANG_ERR_UNSTABLE', `utilisation ${rho} >= 1: the queue grows without bound`);
  const b = erlangB(c, a);
  // C = B / (1 - ρ(1 - B)), the standard identity between Erlang B and C.
  const pWait = b / (1 - rho * (1 - b));
  const wq = pWait / (c * mu - lambda);
  const w = wq + 1 / mu;
  return {
    offeredLoad: a,
    utilisation: rho,
    probabilityOfWaiting: pWait,
    meanQueueWait: wq,
    meanResponseTime: w,
    meanQueueLength: lambda * wq,
    meanInSystem: lambda * w,
  };
}

/** Erlang C from mean inter-arrival and mean service times in ms; times come back in ms. */
export function erlangCFromMs(servers: number, meanInterArrivalMs: number, meanServiceMs: number): MmcResult {
  return erlangC({ servers, arrivalRate: 1 / meanInterArrivalMs, serviceRate: 1 / meanServiceMs });
}

/**
 * The smallest number of servers whose mean queue wait is at most `maxMeanQueueWait` (same time
 * unit as the rates), or undefined past `maxServers`. The capacity question `plan` asks.
 */
export function serversForWait(arrivalRate: number, serviceRate: number, maxMeanQueueWait: number, maxServers = 10_000): number | undefined {
  const start = Math.max(1, Math.floor(arrivalRate / serviceRate) + 1);
  for (let c = start; c <= maxServers; c++) {
    if (erlangC({ servers: c, arrivalRate, serviceRate }).meanQueueWait <= maxMeanQueueWait) return c;
  }
  return undefined;
}
