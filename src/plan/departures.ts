/**
 * Where a scenario departs from the M/M/c queue of Erlang C (warm servers always on, Poisson
 * arrivals at a constant rate, exponential job times, an unbounded queue), in words for plan.md.
 * Pure.
 */
import { meanMs } from '../contract/duration-spec.js';
import { meanJobMs } from '../contract/llm-config.js';
import type { Scenario } from '../load/scenario/schema.js';

/**
 * One sentence per departure; `limited`: some run saw 429s; `scaled`: some point had workersMin <
 * workersMax; `meanJobMs`: Erlang C's mean job time (a token trace's flows at their own lengths,
 * flow-job-time.ts), default the endpoint's; `kinds`: the kinds of endpoint the points ran on
 * (the grid's `type`), default the scenario's.
 */
export function departures(
  sc: Scenario,
  o: { limited: boolean; scaled: boolean; meanJobMs?: number; kinds?: ReadonlySet<'queue' | 'load-balancer'> },
): string[] {
  const e = sc.endpoint;
  const out: string[] = [];
  const cold = meanMs(e.coldStartMs);
  if (o.scaled && cold > 0) {
    out.push(
      `Cold starts: a new worker takes ${(cold / 1000).toFixed(1)} s on average before its first job, and jobs wait for it; Erlang C's servers are always warm.`,
    );
  }
  const kinds = o.kinds ?? new Set([e.type]);
  if (o.scaled && kinds.has('queue')) {
    const how =
      e.scaler.type === 'QUEUE_DELAY'
        ? `when jobs have waited ${e.scaler.value} s (QUEUE_DELAY)`
        : `at ${e.scaler.value} queued jobs per worker (REQUEST_COUNT)`;
    out.push(
      `Scaler lag${kinds.size > 1 ? ' (queue points)' : ''}: workers between workersMin and workersMax start only ${how}, and idle ones stop after ${e.idleTimeoutMs} ms; Erlang C has all c servers on all the time.`,
    );
  }
  if (o.scaled && kinds.has('load-balancer')) {
    // A load-balancing point scales by REQUEST_COUNT: the scenario's, else at workerConcurrency (grid-type.ts).
    const value = e.scaler.type === 'REQUEST_COUNT' ? `${e.scaler.value}` : 'workerConcurrency';
    out.push(
      `Scaler lag${kinds.size > 1 ? ' (load-balancing points)' : ''}: workers between workersMin and workersMax start only at ${value} requests in flight per worker (REQUEST_COUNT), and idle ones stop after ${e.idleTimeoutMs} ms; Erlang C has all c servers on all the time.`,
    );
  }
  if (o.limited)
    out.push(
      "Limits: some requests were answered 429 (rate, concurrency or queue limits), which turns work away or delays it; Erlang C's queue is unbounded and takes every arrival.",
    );
  const d = e.jobDurationMs;
  if (e.llm)
    out.push(
      `Job times come from the token model (llm: mean ${((o.meanJobMs ?? meanJobMs(e)) / 1000).toFixed(2)} s, before any max_tokens cap), not exponential: their variability differs from the exponential's.`,
    );
  else if (typeof d === 'number' || d.dist !== 'exponential') {
    const kind = typeof d === 'number' ? 'constant' : d.dist;
    const tail =
      kind === 'lognormal' || kind === 'empirical'
        ? 'a heavier tail than the exponential makes long jobs block workers, and queues grow longer than Erlang C says'
        : kind === 'constant' || kind === 'uniform'
          ? 'less variable than the exponential: queues are shorter than Erlang C says'
          : "their variability differs from the exponential's";
    out.push(`Job times are ${kind} (mean ${(meanMs(d) / 1000).toFixed(2)} s), not exponential: ${tail}.`);
  }
  const nonPoisson = sc.traffic.filter((f) => f.arrival.process !== 'poisson');
  if (nonPoisson.length) {
    out.push(
      `Arrivals are not a constant-rate Poisson stream (${nonPoisson.map((f) => `${f.name}: ${f.arrival.process}`).join(', ')}): Erlang C uses the mean rate over the run, and a peak above it queues more than the mean predicts.`,
    );
  }
  return out;
}
