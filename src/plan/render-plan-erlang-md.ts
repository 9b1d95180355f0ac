/**
 * plan.md's Erlang C parts: the line under the recommendation, the two columns of each row, and
 * the section "Erlang C beside the simulation" with where the scenario departs from M/M/c. With
 * jobs per worker (workerConcurrency) the servers are job slots, workersMax × workerConcurrency
 * (exact when a worker's jobs run independently); with a batching endpoint (llm.engine) Erlang C
 * has no figure to give, and plan.md says so and what it would have assumed. With a closed flow
 * submitting jobs there is no arrival rate to start from: plan.md says so, names the flows and
 * shows — in the columns; on a batching endpoint it says both reasons (and leaves the columns out,
 * as for any batching endpoint). Pure.
 */
import type { Scenario } from '../load/scenario/schema.js';
import { departures } from './departures.js';
import { tokenTraceFlows } from './flow-job-time.js';
import { submitsJob } from '../load/behaviours/registry.js';
import { closedJobFlows } from './mmc-reference.js';
import { describeKnobs } from './grid.js';
import { typeAt } from './grid-type.js';
import { fmt, pct } from './plan-format.js';
import type { PlanResult, PlanRow } from './plan-result.js';

/** The endpoint batches: plan.md shows no Erlang C figure. */
export const batching = (p: PlanResult) => p.recommendation.erlangC.notModelled === 'batching';

/** A closed flow submits jobs: Erlang C has no arrival rate (and no figure). */
const closedLoop = (p: PlanResult) => p.recommendation.erlangC.arrivalsPerSec === null;

/** Some point runs more than one job per worker (the servers are job slots). */
const perWorker = (p: PlanResult) => p.recommendation.erlangC.workerConcurrency !== undefined;

/** The line under the recommendation; null when Erlang C has nothing to say. */
export function erlangIntro(p: PlanResult): string | null {
  const ec = p.recommendation.erlangC;
  if (closedLoop(p) && batching(p))
    return 'Erlang C (M/M/c) gives no figure here: a closed flow sets its own arrival rate, and Erlang C does not model batching; see below.';
  if (batching(p)) return 'Erlang C (M/M/c) does not model batching, so it gives no figure here; see below.';
  if (ec.workersMax === null) return null;
  if (!perWorker(p)) return `Erlang C (M/M/c) says ${ec.workersMax} for the queue-delay SLOs; see below.`;
  return `Erlang C (M/M/c over workersMax × workerConcurrency job slots) says workersMax ${ec.workersMax} at workerConcurrency ${ec.workerConcurrency} (${ec.servers} slots) for the queue-delay SLOs; see below.`;
}

/** Some point is a load-balancing endpoint (its rows count the balancer's failures). */
const balancerRows = (p: PlanResult) => p.rows.some((r) => r.measured.balancerFailed !== undefined);

/** The Erlang C columns; with a load-balancing point, also its share of requests past the balancer's 2 min. */
export const erlangHeads = (p: PlanResult) => [
  'Erlang C P(wait)',
  'Erlang C queue delay mean / p95 ms',
  ...(balancerRows(p) ? ['Erlang C P(no workers)'] : []),
];

/**
 * A row's Erlang C cells (none for a batching endpoint: the columns are left out; — without an
 * arrival rate). P(no workers), on a load-balancing point: M/M/c's P(wait > 2 min); past
 * saturation, in the long run, at least 1 − 1/ρ of the requests cannot be served (the workers finish cμ a second).
 */
export function erlangCells(p: PlanResult, r: PlanRow): string[] {
  const e = r.erlangC;
  if (batching(p) || e?.stable === null) return [];
  const lb = balancerRows(p);
  if (e === null) return ['—', '—', ...(lb ? ['—'] : [])];
  const onBalancer = r.measured.balancerFailed !== undefined;
  return e.stable
    ? [pct(e.probabilityOfWaiting), `${fmt(e.meanQueueDelayMs)} / ${fmt(e.p95QueueDelayMs)}`, ...(lb ? [onBalancer ? pct(e.noWorkersShare ?? 0) : '—'] : [])]
    : ['100 %', `unbounded (ρ = ${e.utilisation.toFixed(2)})`, ...(lb ? [onBalancer ? `≥ ${pct(1 - 1 / e.utilisation)}` : '—'] : [])];
}

export function erlangSection(p: PlanResult, sc: Scenario): string[] {
  const rec = p.recommendation;
  const ec = rec.erlangC;
  const lambda = ec.arrivalsPerSec;
  const L: string[] = ['## Erlang C beside the simulation', ''];
  if (lambda === null) {
    const flows = closedJobFlows(sc);
    const many = flows.length > 1;
    L.push(
      `No Erlang C for this scenario: it needs an arrival rate fixed in advance, and the closed flow${many ? 's' : ''} ${flows.join(', ')} submit${many ? '' : 's'} jobs at a rate ${many ? 'their' : 'its'} users set themselves (users over a cycle of queue delay, job time and think time: the rate falls as the queue grows). A closed loop of N users never has more than N jobs at the endpoint; the rows show what the simulation measured.`,
    );
    if (batching(p))
      L.push(
        '',
        "**Nor does Erlang C model batching.** This endpoint's workers batch their jobs (`llm.engine`, continuous batching): a job's time depends on how many others its worker holds, while Erlang C's M/M/c queue assumes each job runs alone at a fixed rate. So even with a rate it would give no figure here.",
      );
    return L;
  }
  if (batching(p)) {
    L.push(
      "**Erlang C does not model batching.** This endpoint's workers batch their jobs (`llm.engine`, continuous batching): each iteration gives every running sequence one token and lasts longer the more sequences share it, so a job's time depends on how many others its worker holds. Erlang C's M/M/c queue assumes each job runs alone at a fixed rate.",
      '',
      `The only such rate here is a job alone in its batch: ${fmt(ec.meanJobMs)} ms on average (${aloneIn(sc)}), at λ = ${fmt(lambda)} jobs/s. M/M/c with workersMax × workerConcurrency servers at that speed would understate both the queue and the token times as batches grow, so plan.md shows no Erlang C figure and gives no Erlang C answer: the simulated rows are the answer.`,
    );
    return L;
  }
  const mmc = `Erlang C is the M/M/c queue: Poisson arrivals at λ = ${fmt(lambda)} jobs/s (the scenario's mean), exponential job times of mean ${fmt(ec.meanJobMs)} ms`;
  if (!perWorker(p)) L.push(`${mmc}, c warm workers, an unbounded queue. Its columns above are its prediction for c = workersMax.`);
  else
    L.push(
      `${mmc}, c warm servers, an unbounded queue. Each worker runs up to workerConcurrency jobs at once, each as if alone (no batching engine), so a job waits only when every one of the workersMax × workerConcurrency job slots is taken: the queue is exactly M/M/c with c = workersMax × workerConcurrency, and the columns above are that prediction.`,
    );
  if (balancerRows(p))
    L.push(
      '',
      "On a load-balancing point there is no queue, but a request waits at the balancer for a worker with room, oldest first: Erlang C's queue delay is that wait (the simulation's queue delay column has none to show). The wait ends after 2 min with 503 \"no workers available\": P(no workers) is M/M/c's share of requests waiting longer, C·e^{−(cμ−λ)·120 s}. M/M/c keeps those requests in its queue where the balancer gives up on them, so under load it overstates the waits behind them, and this share, a little. Past saturation (ρ ≥ 1), in the long run at least 1 − 1/ρ of the requests cannot be served (the workers finish cμ a second): a run of a few minutes fails fewer, as the first requests wait 2 min before any gives up and those still waiting at its end are served in the drain.",
    );
  if (ec.workersMax === null)
    L.push('', 'No SLO bounds the queue delay over the whole run (queue_delay_mean_ms or a percentile, `<` or `<=`), so Erlang C gives no c of its own.');
  else if (perWorker(p))
    L.push(
      '',
      `Its smallest number of job slots for the queue-delay SLOs is ${ec.servers}: workersMax ${ec.workersMax} at workerConcurrency ${ec.workerConcurrency}; the simulation recommends ${rec.workersMax === null ? 'nothing in the range' : `workersMax ${rec.workersMax}${rec.knobs && Object.keys(rec.knobs).length ? ` with ${describeKnobs(rec.knobs)}` : ''}`}.`,
    );
  else if (rec.workersMax === ec.workersMax) L.push('', `Its smallest c for the queue-delay SLOs, ${ec.workersMax}, is the simulation's recommendation.`);
  else
    L.push(
      '',
      `Its smallest c for the queue-delay SLOs is ${ec.workersMax}; the simulation recommends ${rec.workersMax ?? 'nothing in the range'}${rec.workersMax !== null && Math.abs(rec.workersMax - ec.workersMax) === 1 && p.borderline.length ? " (off by one where an SLO lies within the seeds' sampling error, below)" : ''}.`,
    );
  const dep = departures(sc, {
    limited: p.rows.some((r) => r.measured.limitedRate.some((v) => (v ?? 0) > 0)),
    scaled: p.rows.some((r) => r.workersMin < r.workersMax),
    meanJobMs: ec.meanJobMs,
    kinds: new Set(p.rows.map((r) => typeAt(sc, r.knobs))),
  });
  if (dep.length) {
    L.push('', 'Where this scenario departs from M/M/c, and why the simulation differs:', '');
    for (const d of dep) L.push(`- ${d}`);
  } else
    L.push(
      '',
      'This scenario is an M/M/c queue (warm workers, Poisson arrivals, exponential job times, no 429s): the simulation should agree with Erlang C within sampling error.',
    );
  return L;
}

/** What a job alone in its batch is made of: a token trace's jobs have their prompts prefilled (flow-job-time.ts). */
function aloneIn(sc: Scenario): string {
  const traced = tokenTraceFlows(sc);
  if (!traced.length) return 'overheadMs plus decodeMs per output token, no prompt prefill';
  const all = traced.length === sc.traffic.filter((f) => submitsJob(f.client)).length;
  return `overheadMs, the prompt's prefill and decodeMs per output token, at the prompt and answer lengths of the trace${traced.length > 1 ? 's' : ''} of ${traced.join(', ')}${all ? '' : '; other flows without prompt prefill'}`;
}
