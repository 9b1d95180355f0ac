/**
 * The plan of a run before it runs (`--dry-run`, and the guard against large runs on real
 * deployments): expected requests per operation, each flow's peak rate against the documented
 * limit of its first operation, and the worker-seconds the jobs will cost. A closed flow has no
 * rate fixed in advance: its figures are the most its users can send, each session taking the
 * mean job time (none queues), which is also the right bound for the guard.
 */
import { meanJobMs } from '../contract/llm-config.js';
import { closedPeakIn, cycleMs } from '../load/arrivals/closed.js';
import { expectedArrivals, isClosed, peakArrivalsPerSec } from '../load/arrivals/registry.js';
import { behaviourOperation, leastSessionMs, submitsJob } from '../load/behaviours/registry.js';
import { limitsOf } from '../load/record/headroom.js';
import type { Scenario } from '../load/scenario/schema.js';

export interface Plan {
  /** Expected requests in all (first requests of sessions plus an estimate of follow-ups). */
  requests: number;
  text: string;
}

export function renderPlan(sc: Scenario): Plan {
  const limits = limitsOf(sc.endpoint);
  const jobMs = meanJobMs(sc.endpoint);
  const perOp = new Map<string, number>();
  const lines: string[] = [];
  let jobs = 0;
  for (const f of sc.traffic) {
    // A closed flow's sessions last at least a job time each: its counts are the most its users start.
    const sessionMs = leastSessionMs(f.client, jobMs);
    const n = expectedArrivals(f.arrival, sc.durationMs, sessionMs);
    const op = behaviourOperation(f.client);
    perOp.set(op, (perOp.get(op) ?? 0) + n);
    if (submitsJob(f.client)) jobs += n;
    if (f.client.behaviour === 'run-poll') {
      // Polls while the job runs: about one per poll interval at its cap, at least one.
      const polls = Math.max(1, Math.ceil(jobMs / Math.max(1, f.client.poll.maxMs)) + 1);
      perOp.set('status', (perOp.get('status') ?? 0) + n * polls);
    }
    const a = f.arrival;
    const peak10 = isClosed(a) ? closedPeakIn(a, sessionMs, 10_000) : peakArrivalsPerSec(a, sc.durationMs, sessionMs) * 10;
    const lim = limits[op].rate;
    const sessions = isClosed(a)
      ? `closed loop of ${a.users} users, at most ~${Math.round(n)} sessions (one per ${Math.round(cycleMs(a, sessionMs))} ms per user at the fastest), at most`
      : `~${Math.round(n)} sessions, peak`;
    lines.push(
      `  ${f.name}: ${f.client.behaviour} on /${op}, ${sessions} ${peak10.toFixed(1)} per 10 s` +
        `${lim === null ? '' : ` against a limit of ${lim} per 10 s (${((100 * peak10) / lim).toFixed(0)} %)`}${lim !== null && peak10 > lim ? '  ← above the limit: expect 429s' : ''}`,
    );
  }
  const requests = Math.round([...perOp.values()].reduce((a, b) => a + b, 0));
  const text = [
    `plan for ${sc.name}: ${(sc.durationMs / 1000).toFixed(0)} s of traffic on endpoint ${sc.endpoint.id}`,
    ...lines,
    `  requests per operation: ${[...perOp].map(([op, n]) => `${op} ~${Math.round(n)}`).join(', ')} (≈ ${requests} in all)`,
    `  worker time: ~${Math.round((jobs * jobMs) / 1000)} worker-seconds (${Math.round(jobs)} jobs × ${(jobMs / 1000).toFixed(2)} s mean job time)`,
    '',
  ].join('\n');
  return { requests, text };
}
