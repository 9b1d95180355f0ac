/**
 * plan.md: the recommendation first, then one row per workersMax (each SLO and figure over the
 * seeds), Erlang C beside it and where the simulation departs from it. Pure.
 */
import type { Scenario } from '../load/scenario/schema.js';
import { GPU_PRICES_DATE } from '../report/prices.js';
import { departures } from './departures.js';
import { closedJobFlows } from './mmc-reference.js';
import { describeKnobs } from './grid.js';
import type { PlanResult, PlanRow } from './plan-result.js';

const fmt = (v: number) => (Number.isInteger(v) ? String(v) : Math.abs(v) >= 100 ? v.toFixed(0) : Math.abs(v) >= 1 ? v.toFixed(2) : v.toPrecision(3));

/** min–max over the seeds (one figure when they agree); — for no data. */
function spread(vs: readonly (number | null)[], f: (v: number) => string = fmt): string {
  const xs = vs.filter((v): v is number => v !== null);
  if (!xs.length) return '—';
  const lo = Math.min(...xs);
  const hi = Math.max(...xs);
  return lo === hi ? f(lo) : `${f(lo)}–${f(hi)}`;
}
const pct = (v: number) => `${(v * 100).toPrecision(3)} %`;
const usd = (v: number) => `$${v >= 100 ? v.toFixed(0) : v >= 1 ? v.toFixed(2) : v.toPrecision(3)}`;

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
  if (rec.cost && p.prices) {
    L.push(
      '',
      `Cost at the recommendation: ${usd(rec.cost.perHour)} per hour, ${rec.cost.per1000Jobs === null ? 'no jobs completed' : `${usd(rec.cost.per1000Jobs)} per 1 000 jobs`} (mean over seeds; flex $${p.prices.flexPerSec}/s, active $${p.prices.activePerSec}/s${p.prices.gpu ? `, ${p.prices.gpu} as of ${GPU_PRICES_DATE}` : ''}).`,
    );
  }
  if (rec.erlangC.workersMax !== null) L.push('', `Erlang C (M/M/c) says ${rec.erlangC.workersMax} for the queue-delay SLOs; see below.`);
  L.push(
    '',
    `SLOs (from ${p.slo.source === '--slo' ? 'the --slo flags' : p.slo.source === 'slo' ? "the scenario's slo: list" : "the scenario's thresholds"}):`,
    '',
  );
  for (const e of p.slo.exprs) L.push(`- \`${e}\``);
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

  L.push('', '## Rows', '', 'Each cell is the range over the seeds (min–max). ✓: every seed meets the SLO; ✗ k/n: only k of n seeds do.', '');
  const grid = p.sweep.grid !== undefined;
  const onFront = new Set((p.paretoFront ?? []).map((f) => `${f.workersMax}|${describeKnobs(f.knobs)}`));
  const head = [
    'workersMax',
    ...(grid ? ['knobs', 'Pareto'] : []),
    'meets all',
    ...p.slo.exprs.map((e) => `\`${e}\``),
    'turnaround p95 ms',
    'queue delay mean ms',
    '429 rate',
    'workers started',
    'billed s flex / active',
    ...(p.prices ? ['$ per hour', '$ per 1 000 jobs'] : []),
    'Erlang C P(wait)',
    'Erlang C queue delay mean / p95 ms',
  ];
  L.push(`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`);
  for (const r of p.rows) {
    const m = r.measured;
    const e = r.erlangC;
    const ec =
      e === null
        ? ['—', '—']
        : e.stable
          ? [pct(e.probabilityOfWaiting), `${fmt(e.meanQueueDelayMs)} / ${fmt(e.p95QueueDelayMs)}`]
          : ['100 %', `unbounded (ρ = ${e.utilisation.toFixed(2)})`];
    L.push(
      `| ${[
        String(r.workersMax) + (r.workersMax === rec.workersMax && describeKnobs(r.knobs ?? {}) === describeKnobs(rec.knobs ?? {}) ? ' ←' : ''),
        ...(grid ? [describeKnobs(r.knobs ?? {}) || '—', onFront.has(`${r.workersMax}|${describeKnobs(r.knobs ?? {})}`) ? '◆' : ''] : []),
        r.meetsAll ? 'yes' : 'no',
        ...r.slo.map(sloCell),
        spread(m.turnaroundP95Ms),
        spread(m.queueDelayMeanMs),
        spread(m.limitedRate, pct),
        spread(r.workers.started),
        `${spread(r.workers.flexSeconds)} / ${spread(r.workers.activeSeconds)}`,
        ...(r.cost ? [spread(r.cost.perHour, usd), spread(r.cost.per1000Jobs, usd)] : []),
        ...ec,
      ].join(' | ')} |`,
    );
  }

  if (p.paretoFront) {
    L.push(
      '',
      '## Cost against the SLOs: the Pareto front',
      '',
      `◆ marks the rows no other row beats on ${rec.cheapestBy} and on every SLO at once (each SLO's worst seed); cheapest first:`,
      '',
    );
    for (const f of p.paretoFront) L.push(`- workersMax ${f.workersMax}${Object.keys(f.knobs).length ? `, ${describeKnobs(f.knobs)}` : ''}`);
    L.push('', 'A point off the front costs more than some other point that does at least as well on every SLO.');
  }
  L.push('', '## Erlang C beside the simulation', '', ...erlangSection(p, sc));
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

/** The Erlang C section's text after its heading: its inputs, its c, where the scenario departs from M/M/c. */
function erlangSection(p: PlanResult, sc: Scenario): string[] {
  const rec = p.recommendation;
  const lambda = rec.erlangC.arrivalsPerSec;
  if (lambda === null) {
    const flows = closedJobFlows(sc);
    const many = flows.length > 1;
    return [
      `No Erlang C for this scenario: it needs an arrival rate fixed in advance, and the closed flow${many ? 's' : ''} ${flows.join(', ')} submit${many ? '' : 's'} jobs at a rate ${many ? 'their' : 'its'} users set themselves (users over a cycle of queue delay, job time and think time: the rate falls as the queue grows). A closed loop of N users never has more than N jobs at the endpoint; the rows show what the simulation measured.`,
    ];
  }
  const L: string[] = [];
  L.push(
    `Erlang C is the M/M/c queue: Poisson arrivals at λ = ${fmt(lambda)} jobs/s (the scenario's mean), exponential job times of mean ${fmt(rec.erlangC.meanJobMs)} ms, c warm workers, an unbounded queue. Its columns above are its prediction for c = workersMax.`,
  );
  if (rec.erlangC.workersMax === null)
    L.push('', 'No SLO bounds the queue delay over the whole run (queue_delay_mean_ms or a percentile, `<` or `<=`), so Erlang C gives no c of its own.');
  else if (rec.workersMax === rec.erlangC.workersMax)
    L.push('', `Its smallest c for the queue-delay SLOs, ${rec.erlangC.workersMax}, is the simulation's recommendation.`);
  else
    L.push(
      '',
      `Its smallest c for the queue-delay SLOs is ${rec.erlangC.workersMax}; the simulation recommends ${rec.workersMax ?? 'nothing in the range'}${rec.workersMax !== null && Math.abs(rec.workersMax - rec.erlangC.workersMax) === 1 && p.borderline.length ? " (off by one where an SLO lies within the seeds' sampling error, below)" : ''}.`,
    );
  const dep = departures(sc, {
    limited: p.rows.some((r) => r.measured.limitedRate.some((v) => (v ?? 0) > 0)),
    scaled: p.rows.some((r) => r.workersMin < r.workersMax),
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
