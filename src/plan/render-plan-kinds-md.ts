/**
 * plan.md's figures for the two kinds of endpoint: a row's failures cell, and (with a grid over
 * `type`) the section "Queue or load-balancing endpoint", each kind's cheapest point meeting every
 * SLO side by side (plan-kinds.ts). Pure.
 */
import { kindChoices, otherKnobs } from './plan-kinds.js';
import { fmt, spread, usd } from './plan-format.js';
import { rowPrice, type PlanResult, type PlanRow } from './plan-result.js';

/** Jobs failed over the seeds (min–max); a load-balancing point's balancer failures by cause after it, the non-zero ones. */
export function failedCell(r: PlanRow): string {
  const causes = Object.entries(r.measured.balancerFailed ?? {}).filter(([, vs]) => vs.some((v) => v > 0));
  const by = causes.map(([c, vs]) => `${c} ${spread(vs)}`).join(', ');
  return `${spread(r.measured.jobsFailed)}${by ? ` (${by})` : ''}`;
}

/** The TTFT column: the plan has a streaming flow. */
export const hasTtft = (p: PlanResult) => p.rows.some((r) => r.measured.ttftP95Ms !== undefined);

export function kindSection(p: PlanResult): string[] {
  const kinds = kindChoices(p);
  if (!kinds) return [];
  const ttft = hasTtft(p);
  const priced = p.prices !== undefined;
  const head = [
    'kind',
    'cheapest meeting every SLO',
    ...(priced ? ['$ per hour'] : ['billed worker-seconds']),
    ...(ttft ? ['TTFT p95 ms'] : []),
    'failed',
    'points meeting every SLO',
  ];
  const L = [
    '## Queue or load-balancing endpoint',
    '',
    "The same traffic on both kinds of endpoint (the grid's `type`): each kind's cheapest point meeting every SLO on every seed. Figures are the range over the seeds; failed counts the jobs (requests) that ended FAILED or TIMED_OUT, and on a load-balancing endpoint the requests its balancer ended, by cause.",
    '',
    `| ${head.join(' | ')} |`,
    `|${head.map(() => '---').join('|')}|`,
  ];
  for (const k of kinds) {
    const b = k.best;
    const others = b ? otherKnobs(b) : '';
    L.push(
      `| ${[
        k.type,
        b ? `workersMax ${b.workersMax}${others ? `, ${others}` : ''}` : 'none in the range',
        b ? (priced ? usd(rowPrice(b)) : fmt(rowPrice(b))) : '—',
        ...(ttft ? [b ? spread(b.measured.ttftP95Ms ?? []) : '—'] : []),
        b ? failedCell(b) : '—',
        `${k.meeting} of ${k.points}`,
      ].join(' | ')} |`,
    );
  }
  if (p.slo.added?.length)
    L.push(
      '',
      `A load-balancing point meets the SLOs only if its balancer ended no request (\`${p.slo.added.join('`, `')}\`, added to your SLOs: give your own \`balancer_failed\` SLO to allow some). The rows below show every point's failures.`,
    );
  return L;
}
