/**
 * plan.md: the recommendation first, then (with a workerConcurrency grid) the workers ×
 * concurrency tables, one row per point (each SLO and figure over the seeds), the Pareto front,
 * Erlang C beside it and where the simulation departs from it. Pure.
 */
import type { Scenario } from '../load/scenario/schema.js';
import { billedText } from '../report/render-md.js';
import { describeKnobs, pointKey } from './grid.js';
import { fmt, pct, spread, usd } from './plan-format.js';
import { concurrencyGrid } from './plan-grid-table.js';
import { rowPrice, type PlanResult, type PlanRow } from './plan-result.js';
import { batching, erlangCells, erlangHeads, erlangIntro, erlangSection } from './render-plan-erlang-md.js';
import { gridSection } from './render-plan-grid-md.js';
import { planTraceText, type PlanTrace } from './plan-traces.js';
import { submitsJob } from '../load/behaviours/registry.js';
import { gpuSection, pricesText } from './render-plan-gpus-md.js';
import { failedCell, hasTtft, kindSection } from './render-plan-kinds-md.js';

function sloCell(s: PlanRow['slo'][number]): string {
  const ok = s.met.filter((m) => m).length;
  const mark = ok === s.met.length ? '✓' : ok === 0 ? '✗' : `✗ ${ok}/${s.met.length} seeds`;
  return `${spread(s.values)} ${mark}`;
}

export function renderPlanMarkdown(p: PlanResult, sc: Scenario): string {
  const rec = p.recommendation;
  const L: string[] = [];
  L.push(`# Capacity plan: ${p.scenario.name}`, '');
  const withKnobs = rec.knobs && Object.keys(rec.knobs).length ? ` with ${describeKnobs(rec.knobs)}` : '';
  L.push(rec.workersMax === null ? `**No recommendation**: ${rec.reason}.` : `**Recommendation: workersMax ${rec.workersMax}${withKnobs}** — ${rec.reason}.`);
  if (rec.flags?.length) L.push('', '**Check before you rely on it:**', '', ...rec.flags.map((f) => `- ${f}.`));
  if (rec.cost && p.prices) {
    L.push(
      '',
      `Cost at the recommendation: ${usd(rec.cost.perHour)} per hour, ${rec.cost.per1000Jobs === null ? 'no jobs completed' : `${usd(rec.cost.per1000Jobs)} per 1 000 jobs`} (mean over seeds; ${pricesText(p.prices)}).`,
    );
  }
  if (p.billing) L.push('', `Billing (docs/plan.md "Cost"): flex workers per second, rounded up, from start to stop (idle tail included), ${billedText(p)}.`);
  const intro = erlangIntro(p);
  if (intro) L.push('', intro);
  L.push(
    '',
    `SLOs (from ${p.slo.source === '--slo' ? 'the --slo flags' : p.slo.source === 'slo' ? "the scenario's slo: list" : "the scenario's thresholds"}):`,
    '',
  );
  for (const e of p.slo.exprs)
    L.push(
      `- \`${e}\`${p.slo.added?.includes(e) ? " (added by loadlab: a load-balancing point whose balancer ends requests, with 503 'no workers available' after 2 min, 504 past 5.5 min or a dropped request, does not meet the SLOs; an SLO of yours on balancer_failed replaces it)" : ''}`,
    );
  const s = p.sweep;
  L.push(
    '',
    `Sweep: workersMax ${s.workersMax.from}..${s.workersMax.to}, workersMin ${s.workersMin === 'max' ? '= workersMax' : `${s.workersMin} (at most workersMax)`}, seeds ${s.seeds.join(', ')}, ${(p.scenario.durationMs / 1000).toFixed(0)} s of traffic per run. ` +
      (s.grid
        ? `Grid: ${s.grid.length} combinations of endpoint knobs, each a line along workersMax${s.exhaustive ? ', every point run (--exhaustive)' : ', each stopped early once a point and the next two met every SLO on every seed (--exhaustive runs all)'}.`
        : s.stoppedAfter === null
          ? s.exhaustive
            ? 'Every point ran (--exhaustive).'
            : 'Every point ran.'
          : `Stopped early after workersMax ${s.stoppedAfter}: it and the two points below it met every SLO on every seed (--exhaustive runs all).`),
  );
  const traces = p.scenario.traces ?? [];
  if (traces.length) L.push('', ...traces.map(planTraceText));
  // Every job a trace's request: each row says how many of them completed (the rest 429'd, gave up or were cut off).
  const traced = allJobsTraced(sc, traces) ? traces.reduce((n, t) => n + t.requests, 0) : null;

  const cg = concurrencyGrid(p);
  if (cg) L.push('', ...gridSection(cg));
  const kinds = kindSection(p);
  if (kinds.length) L.push('', ...kinds);

  L.push('', '## Rows', '', 'Each cell is the range over the seeds (min–max). ✓: every seed meets the SLO; ✗ k/n: only k of n seeds do.', '');
  const grid = p.sweep.grid !== undefined;
  const onFront = new Set((p.paretoFront ?? []).map((f) => pointKey(f.workersMax, f.knobs)));
  const recKey = rec.workersMax === null ? null : pointKey(rec.workersMax, rec.knobs);
  const head = [
    'workersMax',
    ...(grid ? ['knobs', 'Pareto'] : []),
    'meets all',
    ...p.slo.exprs.map((e) => `\`${e}\``),
    ...(traced !== null ? ['requests completed'] : []),
    'turnaround p95 ms',
    'queue delay mean ms',
    ...(hasTtft(p) ? ['TTFT p95 ms'] : []),
    'failed',
    '429 rate',
    'workers started',
    'billed s flex / active',
    ...(p.prices ? ['$ per hour', '$ per 1 000 jobs'] : []),
    ...(batching(p) ? [] : erlangHeads(p)),
  ];
  L.push(`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`);
  for (const r of p.rows) {
    const m = r.measured;
    L.push(
      `| ${[
        String(r.workersMax) + (pointKey(r.workersMax, r.knobs) === recKey ? ' ←' : ''),
        ...(grid ? [describeKnobs(r.knobs ?? {}) || '—', onFront.has(pointKey(r.workersMax, r.knobs)) ? '◆' : ''] : []),
        r.meetsAll ? 'yes' : 'no',
        ...r.slo.map(sloCell),
        ...(traced !== null ? [`${spread(m.jobsCompleted)} of ${traced}`] : []),
        spread(m.turnaroundP95Ms),
        spread(m.queueDelayMeanMs),
        ...(hasTtft(p) ? [spread(m.ttftP95Ms ?? [])] : []),
        failedCell(r),
        spread(m.limitedRate, pct),
        spread(r.workers.started),
        `${spread(r.workers.flexSeconds)} / ${spread(r.workers.activeSeconds)}`,
        ...(r.cost ? [spread(r.cost.perHour, usd), spread(r.cost.per1000Jobs, usd)] : []),
        ...erlangCells(p, r),
      ].join(' | ')} |`,
    );
  }

  const gpus = gpuSection(p);
  if (gpus.length) L.push('', ...gpus);

  if (p.paretoFront) {
    L.push(
      '',
      '## Cost against the SLOs: the Pareto front',
      '',
      `◆ marks the rows no other row beats on ${rec.cheapestBy} and on every SLO at once (each SLO's worst seed); cheapest first:`,
      '',
    );
    for (const f of p.paretoFront) {
      const key = pointKey(f.workersMax, f.knobs);
      const r = p.rows.find((x) => pointKey(x.workersMax, x.knobs) === key);
      const price = r
        ? `: ${p.prices ? `${usd(rowPrice(r))} per hour` : `${fmt(rowPrice(r))} billed worker-seconds`}${r.meetsAll ? '' : ', fails an SLO'}`
        : '';
      const isRec = key === recKey;
      L.push(`- workersMax ${f.workersMax}${Object.keys(f.knobs).length ? `, ${describeKnobs(f.knobs)}` : ''}${price}${isRec ? ' ← the recommendation' : ''}`);
    }
    L.push('', 'A point off the front costs more than some other point that does at least as well on every SLO.');
  }
  L.push('', ...erlangSection(p, sc));

  if (p.borderline.length || p.failingAbove.length) {
    L.push('', '## Sampling error', '');
    for (const b of p.borderline)
      L.push(
        `- workersMax ${b.workersMax}: the seeds disagree on \`${b.expr}\` (${b.min === null ? 'no data' : `${fmt(b.min)}–${fmt(b.max!)}`}): its limit lies within the seeds' sampling error. More seeds (--seeds) or a longer run narrow it.`,
      );
    if (p.failingAbove.length)
      L.push(
        `- workersMax ${p.failingAbove.join(', ')} ${p.failingAbove.length > 1 ? 'fail' : 'fails'} above the recommendation: over these seeds the SLOs are not monotone in workersMax, so the recommendation is at the edge of sampling error.`,
      );
  }
  L.push('');
  return L.join('\n');
}

/** Every flow that submits jobs replays a token trace (so a run's completed jobs are of its requests). */
function allJobsTraced(sc: Scenario, traces: readonly PlanTrace[]): boolean {
  const jobFlows = sc.traffic.filter((f) => submitsJob(f.client));
  return traces.length > 0 && jobFlows.every((f) => traces.some((t) => t.flow === f.name));
}
