/**
 * The plan of a run before it runs (`--dry-run`, and the guard against large runs on real
 * deployments): expected requests per operation, each flow's peak rate against the documented
 * limit of its first operation, and the worker-seconds the jobs will cost.
 *
 * Worker time is jobs × mean job time when a worker runs one job at a time. With
 * workerConcurrency c > 1 (no engine) a worker's jobs run independently, so the same job-seconds
 * take between 1/c of that (every worker full) and all of it (one job each) in worker-seconds. A
 * batching engine's job time depends on its batch, so the line says what it assumed instead.
 */
import { meanJobMs } from '../contract/llm-config.js';
import { expectedArrivals, peakArrivalsPerSec } from '../load/arrivals/registry.js';
import { behaviourOperation } from '../load/behaviours/registry.js';
import { limitsOf } from '../load/record/headroom.js';
import type { Scenario } from '../load/scenario/schema.js';

export interface Plan {
  /** Expected requests in all (first requests of sessions plus an estimate of follow-ups). */
  requests: number;
  text: string;
}

const JOB_BEHAVIOURS = new Set(['run-poll', 'run-webhook', 'run-stream', 'runsync', 'openai-chat']);

export function renderPlan(sc: Scenario): Plan {
  const limits = limitsOf(sc.endpoint);
  const jobMs = meanJobMs(sc.endpoint);
  const perOp = new Map<string, number>();
  const lines: string[] = [];
  let jobs = 0;
  for (const f of sc.traffic) {
    const n = expectedArrivals(f.arrival, sc.durationMs);
    const op = behaviourOperation(f.client);
    perOp.set(op, (perOp.get(op) ?? 0) + n);
    if (JOB_BEHAVIOURS.has(f.client.behaviour)) jobs += n;
    if (f.client.behaviour === 'run-poll') {
      // Polls while the job runs: about one per poll interval at its cap, at least one.
      const polls = Math.max(1, Math.ceil(jobMs / Math.max(1, f.client.poll.maxMs)) + 1);
      perOp.set('status', (perOp.get('status') ?? 0) + n * polls);
    }
    const peak10 = peakArrivalsPerSec(f.arrival, sc.durationMs) * 10;
    const lim = limits[op].rate;
    lines.push(
      `  ${f.name}: ${f.client.behaviour} on /${op}, ~${Math.round(n)} sessions, peak ${peak10.toFixed(1)} per 10 s` +
        `${lim === null ? '' : ` against a limit of ${lim} per 10 s (${((100 * peak10) / lim).toFixed(0)} %)`}${lim !== null && peak10 > lim ? '  ← above the limit: expect 429s' : ''}`,
    );
  }
  const requests = Math.round([...perOp.values()].reduce((a, b) => a + b, 0));
  const text = [
    `plan for ${sc.name}: ${(sc.durationMs / 1000).toFixed(0)} s of traffic on endpoint ${sc.endpoint.id}`,
    ...lines,
    `  requests per operation: ${[...perOp].map(([op, n]) => `${op} ~${Math.round(n)}`).join(', ')} (≈ ${requests} in all)`,
    workerTime(sc, jobs, jobMs),
    '',
  ].join('\n');
  return { requests, text };
}

/** The worker-time line: exact for one job per worker, a range with concurrency, an assumption with an engine. */
function workerTime(sc: Scenario, jobs: number, jobMs: number): string {
  const c = sc.endpoint.workerConcurrency;
  const engine = sc.endpoint.llm?.engine;
  const jobSeconds = Math.round((jobs * jobMs) / 1000);
  const each = `${Math.round(jobs)} jobs × ${(jobMs / 1000).toFixed(2)} s mean job time`;
  if (engine)
    return (
      `  job time: ~${jobSeconds} job-seconds (${each}, each alone in its batch: overheadMs plus decodeMs per output token, no prompt prefill); ` +
      `a worker batches up to ${Math.min(c, engine.maxNumSeqs)} jobs and its iterations lengthen as the batch grows, so this is not an estimate of billed worker-seconds (loadlab plan simulates them)`
    );
  if (c === 1) return `  worker time: ~${jobSeconds} worker-seconds (${each})`;
  return `  worker time: ~${jobSeconds} job-seconds (${each}); a worker runs up to ${c} at once, so between ~${Math.round(jobSeconds / c)} (every worker full) and ~${jobSeconds} worker-seconds`;
}
