/**
 * What `loadlab plan` and `loadlab plan merge` both do with a whole plan: write plan.json, plan.md
 * and plan.html into the output directory, and say the recommendation first on stdout.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describeKnobs } from '../../plan/grid.js';
import { renderPlanJson, rowPrice, type PlanResult } from '../../plan/plan-result.js';
import { kindChoices, otherKnobs } from '../../plan/plan-kinds.js';
import { spread } from '../../plan/plan-format.js';
import { failedCell } from '../../plan/render-plan-kinds-md.js';
import { renderPlanHtml } from '../../plan/render-plan-html.js';
import { renderPlanMarkdown } from '../../plan/render-plan-md.js';
import { pricesShort } from '../../plan/render-plan-gpus-md.js';
import type { Scenario } from '../../load/scenario/schema.js';

export function writeWholePlan(dir: string, plan: PlanResult, sc: Scenario): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'plan.json'), renderPlanJson(plan));
  writeFileSync(join(dir, 'plan.md'), renderPlanMarkdown(plan, sc));
  writeFileSync(join(dir, 'plan.html'), renderPlanHtml(plan, sc));
}

/** The recommendation (or its absence) and what stands beside it: cost, Erlang C, the Pareto front. */
export function recommendationLines(plan: PlanResult): string[] {
  const rec = plan.recommendation;
  return [
    rec.workersMax === null
      ? `NO RECOMMENDATION: ${rec.reason}`
      : `RECOMMENDATION: workersMax ${rec.workersMax}${rec.knobs && Object.keys(rec.knobs).length ? ` with ${describeKnobs(rec.knobs)}` : ''}`,
    ...(rec.workersMax !== null ? [`  ${rec.reason}`] : []),
    ...(rec.flags ?? []).map((f) => `  WARNING: ${f}`),
    ...(rec.cost
      ? [
          `  cost: $${rec.cost.perHour.toFixed(4)} per hour, ${rec.cost.per1000Jobs === null ? 'no jobs completed' : `$${rec.cost.per1000Jobs.toFixed(4)} per 1000 jobs`}${plan.prices ? ` (${pricesShort(plan.prices)}; initializing ${plan.billing?.initializing ? 'billed' : 'not billed'})` : ''}`,
        ]
      : []),
    ...kindLines(plan),
    ...erlangLine(rec.erlangC),
    ...(plan.paretoFront
      ? [
          `  Pareto front (cost vs SLOs): ${plan.paretoFront.map((f) => `workersMax ${f.workersMax}${Object.keys(f.knobs).length ? ` (${describeKnobs(f.knobs)})` : ''}`).join('; ')}`,
        ]
      : []),
  ];
}

/** Erlang C's answer, per job slot with workerConcurrency; none for a batching endpoint (it does not model batching) or a closed flow (no arrival rate). */
function erlangLine(ec: PlanResult['recommendation']['erlangC']): string[] {
  if (ec.notModelled === 'batching')
    return [
      `  Erlang C: not modelled (the workers batch their jobs: llm.engine${ec.arrivalsPerSec === null ? '; and a closed flow sets its own arrival rate' : ''})`,
    ];
  if (ec.workersMax === null) return [];
  const slots = ec.workerConcurrency === undefined ? '' : ` at workerConcurrency ${ec.workerConcurrency} (${ec.servers} job slots)`;
  return [`  Erlang C (M/M/c) for the queue-delay SLOs: ${ec.workersMax}${slots}`];
}

/** With a grid over `type`: each kind's cheapest point meeting every SLO, its cost and failures (plan-kinds.ts). */
function kindLines(plan: PlanResult): string[] {
  return (kindChoices(plan) ?? []).map(({ type, best, meeting, points }) => {
    if (!best) return `  ${type}: no point meets every SLO (0 of ${points})`;
    const others = otherKnobs(best);
    const price = plan.prices ? `$${rowPrice(best).toFixed(4)} per hour` : `${rowPrice(best).toFixed(0)} billed worker-seconds`;
    const ttft = best.measured.ttftP95Ms ? `, TTFT p95 ${spread(best.measured.ttftP95Ms)} ms` : '';
    return `  ${type}: workersMax ${best.workersMax}${others ? ` (${others})` : ''}, ${price}${ttft}, failed ${failedCell(best)} (${meeting} of ${points} points meet every SLO)`;
  });
}

export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}
