/**
 * The plan of a run before it runs (`--dry-run`, and the guard against large runs on real
 * deployments): expected requests per operation, each flow's peak rate against the documented
 * limit of its first operation (a token trace's flow also its trace: trace-summary.ts), and the
 * worker-seconds the jobs will cost (a token trace's jobs at the mean its own prompt and answer
 * lengths give: flow-job-time.ts). A closed flow has no
 * rate fixed in advance: its figures are the most its users can send, each session taking the
 * mean job time (none queues), which is also the right bound for the guard.
 *
 * Worker time is jobs × mean job time when a worker runs one job at a time. With
 * workerConcurrency c > 1 (no engine) a worker's jobs run independently, so the same job-seconds
 * take between 1/c of that (every worker full) and all of it (one job each) in worker-seconds. A
 * batching engine's job time depends on its batch, so the line says what it assumed instead (a
 * job alone in its batch is also the shortest session a closed flow's bound assumes), and the
 * engine's batch limits in force with where they came from (contract/vllm-defaults.ts); so are
 * the endpoint's defaults by its preset (contract/endpoint-presets.ts). An endpoint listing its GPU
 * types (`gpus`) has them said in priority order with each one's host capacity, and the engine's
 * limits on each type (its byGpu entry over its own).
 */
import { engineOn } from '../contract/llm-config.js';
import { endpointDefaultsText } from '../contract/endpoint-presets.js';
import { engineLimitsText } from '../contract/vllm-defaults.js';
import { closedPeakIn, cycleMs } from '../load/arrivals/closed.js';
import { type ArrivalSpec, expectedArrivals, isClosed, peakArrivalsPerSec } from '../load/arrivals/registry.js';
import { behaviourOperation, hasTurns, leastSessionMs, meanTurns, submitsJob } from '../load/behaviours/registry.js';
import { limitsOf } from '../load/record/headroom.js';
import type { Scenario } from '../load/scenario/schema.js';
import { type FlowJobs, type FlowJobTime, flowJobTime, meanJobTime } from './flow-job-time.js';
import { traceSummary } from './trace-summary.js';

export interface Plan {
  /** Expected requests in all (first requests of sessions plus an estimate of follow-ups). */
  requests: number;
  text: string;
}

/** `gpu`: the --gpu flag, which names the GPU in place of the scenario's plan.gpu. */
export function renderPlan(sc: Scenario, gpu: string | undefined = sc.plan?.gpu): Plan {
  const limits = limitsOf(sc.endpoint);
  const perOp = new Map<string, number>();
  const lines: string[] = [];
  const jobFlows: FlowJobs[] = [];
  for (const f of sc.traffic) {
    // A token trace's jobs last what its lengths give (flow-job-time.ts); an http flow's, jobDurationMs; other flows', the endpoint's mean.
    const time = flowJobTime(sc.endpoint, f.arrival, f.client);
    const jobMs = time.ms;
    // A closed flow's sessions last at least a job time each: its counts are the most its users start.
    const sessionMs = leastSessionMs(f.client, jobMs);
    const n = expectedArrivals(f.arrival, sc.durationMs, sessionMs);
    const op = behaviourOperation(f.client, sc.endpoint.type === 'load-balancer');
    // A multi-turn chat's session sends a request, and a job, per turn.
    const turns = meanTurns(f.client);
    perOp.set(op, (perOp.get(op) ?? 0) + n * turns);
    if (submitsJob(f.client)) jobFlows.push({ name: f.name, jobs: n * turns, time });
    if (f.client.behaviour === 'run-poll') {
      // Polls while the job runs: about one per poll interval at its cap, at least one.
      const polls = Math.max(1, Math.ceil(jobMs / Math.max(1, f.client.poll.maxMs)) + 1);
      perOp.set('status', (perOp.get('status') ?? 0) + n * polls);
    }
    const [sessions, peak10] = sessionsAndPeak(f.arrival, n, sc.durationMs, sessionMs);
    const lim = limits[op].rate;
    lines.push(
      `  ${f.name}: ${f.client.behaviour} on /${op}, ${sessions} ${peak10.toFixed(1)} per 10 s` +
        `${lim === null ? '' : ` against a limit of ${lim} per 10 s (${((100 * peak10) / lim).toFixed(0)} %)`}${lim !== null && peak10 > lim ? '  ← above the limit: expect 429s' : ''}`,
      ...traceSummary(f.arrival),
      ...(hasTurns(f.client) ? [`    ${+turns.toFixed(2)} turns a session on average (a request and a job each), ~${Math.round(n * turns)} requests`] : []),
    );
  }
  const requests = Math.round([...perOp.values()].reduce((a, b) => a + b, 0));
  const text = [
    `plan for ${sc.name}: ${(sc.durationMs / 1000).toFixed(0)} s of traffic on endpoint ${sc.endpoint.id}`,
    ...lines,
    `  requests per operation: ${[...perOp].map(([op, n]) => `${op} ~${Math.round(n)}`).join(', ')} (≈ ${requests} in all)`,
    workerTime(sc, jobFlows),
    `  endpoint defaults: ${endpointDefaultsText(sc.endpoint)}`,
    ...gpuLines(sc, gpu),
    '',
  ].join('\n');
  return { requests, text };
}

/** How a flow's line names its sessions, and its most sessions in 10 s: for a closed flow, what its users start at the fastest. */
function sessionsAndPeak(a: ArrivalSpec, n: number, durationMs: number, sessionMs: number): [string, number] {
  if (!isClosed(a)) return [`~${Math.round(n)} sessions, peak`, peakArrivalsPerSec(a, durationMs, sessionMs) * 10];
  return [
    `closed loop of ${a.users} users, at most ~${Math.round(n)} sessions (one per ${Math.round(cycleMs(a, sessionMs))} ms per user at the fastest), at most`,
    closedPeakIn(a, sessionMs, 10_000),
  ];
}

/**
 * The worker-time line: exact for one job per worker, a range with concurrency, an assumption with
 * an engine. The mean job time is over every flow's jobs, a token trace's from its own lengths.
 */
function workerTime(sc: Scenario, flows: readonly FlowJobs[]): string {
  const c = sc.endpoint.workerConcurrency;
  const engine = sc.endpoint.llm?.engine;
  const jobs = flows.reduce((n, f) => n + f.jobs, 0);
  const jobMs = meanJobTime(sc, flows);
  const jobSeconds = Math.round((jobs * jobMs) / 1000);
  const traced = flows.filter((f) => f.time.trace && f.jobs > 0);
  const fromTrace = traced.map((f) => `${f.name}: its trace's ${lengths(f.time.trace!)}, ${(f.time.ms / 1000).toFixed(2)} s`).join('; ');
  const each = `${Math.round(jobs)} jobs × ${(jobMs / 1000).toFixed(2)} s mean job time`;
  if (engine) {
    const alone = traced.length
      ? `each alone in its batch: overheadMs, its prompt's prefill and decodeMs per output token; ${fromTrace}${traced.length < flows.filter((f) => f.jobs > 0).length ? '; other flows without prompt prefill' : ''}`
      : 'each alone in its batch: overheadMs plus decodeMs per output token, no prompt prefill';
    return (
      `  job time: ~${jobSeconds} job-seconds (${each}, ${alone}); ` +
      `${batchOf(Math.min(c, engine.maxNumSeqs))}, so this is not an estimate of billed worker-seconds (loadlab plan simulates them)`
    );
  }
  const why = traced.length ? `; ${fromTrace}` : '';
  if (c === 1) return `  worker time: ~${jobSeconds} worker-seconds (${each}${why})`;
  return `  worker time: ~${jobSeconds} job-seconds (${each}${why}); a worker runs up to ${c} at once, so between ~${Math.round(jobSeconds / c)} (every worker full) and ~${jobSeconds} worker-seconds`;
}

/** A trace's mean lengths, for the job-time line. */
function lengths(t: NonNullable<FlowJobTime['trace']>): string {
  return `${t.promptTokens.toFixed(0)} prompt and ${t.outputTokens.toFixed(1)} answer tokens a request on average`;
}

/** What one worker's engine does with its jobs (workerConcurrency 1: a batch of one). */
function batchOf(n: number): string {
  return n === 1
    ? 'a worker runs one job at a time (workerConcurrency 1: a batch of one)'
    : `a worker batches up to ${n} jobs and its iterations lengthen as the batch grows`;
}

/** The GPU types and host capacity, and the engine's limits (on each type when the endpoint lists them). */
function gpuLines(sc: Scenario, gpu: string | undefined): string[] {
  const e = sc.endpoint.llm?.engine;
  const gpus = sc.endpoint.gpus;
  if (!gpus?.length) return e ? [`  engine limits: ${engineLimitsText(e, gpu)}`] : [];
  const cap = sc.endpoint.hostCapacity ?? {};
  return [
    `  GPU types (priority order): ${gpus.map((g) => `${g} (${cap[g] === undefined ? 'unlimited host capacity' : `room for ${cap[g]} worker${cap[g] === 1 ? '' : 's'}`})`).join(', ')}`,
    ...(e ? gpus.map((g) => `  engine limits on ${g}: ${engineLimitsText(engineOn(e, g), g)}`) : []),
  ];
}
