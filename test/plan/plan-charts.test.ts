/**
 * plan.html's charts as data: the ChartSpecs of real small plans of test/fixtures/plan-small.yaml
 * (swept in this thread, as `loadlab plan --jobs 1` does). Per SLO: a dot series per seed with the
 * runs' values, their mean, the SLO's limit as a dashed line, Erlang C beside a queue-delay SLO
 * (on a log axis when the values span orders of magnitude);
 * cost against workersMax; with a grid, a line per combination and the cost-vs-SLO Pareto front.
 * And plan.html carries them before the tables, the same bytes for the same plan.
 */
import { describe, expect, test } from 'vitest';
import { loadScenarioFile } from '../../src/load/scenario/loader.js';
import { PRICE_BOOK_2026 } from '../../src/report/prices.js';
import { combinations, type GridAxis } from '../../src/plan/grid.js';
import { inlineRunner } from '../../src/plan/inline-runner.js';
import { mmcInputs } from '../../src/plan/mmc-reference.js';
import { planCharts } from '../../src/plan/plan-charts.js';
import { buildPlan, type PlanResult } from '../../src/plan/plan-result.js';
import { renderPlanHtml } from '../../src/plan/render-plan-html.js';
import { slosOf, type Slos } from '../../src/plan/slo.js';
import { sweep } from '../../src/plan/sweep.js';
import type { ChartSpec } from '../../src/report/html/chart-spec.js';
import { expectNoEmptyChartNorDashLines } from '../helpers/page-html.js';

const l = loadScenarioFile('test/fixtures/plan-small.yaml');
if (!l.ok) throw new Error(JSON.stringify(l.issues));
const sc = l.scenario;
const SLOS = ['turnaround_p95_ms < 20000', 'queue_delay_mean_ms < 1500'];

/** What `loadlab plan plan-small.yaml --workers-max 1..4 --seeds 2 --gpu A100 --exhaustive --jobs 1 [--grid …]` computes. */
async function smallPlan(axes: GridAxis[] = [], prices = true): Promise<PlanResult> {
  const slos = slosOf(sc, SLOS) as Slos;
  const range = [1, 2, 3, 4];
  const seeds = [3, 4];
  const runner = inlineRunner({ scenario: sc, slos: SLOS, workersMin: sc.endpoint.workersMin });
  const outcome = await sweep(runner, { workers: range, seeds, lines: combinations(axes), exhaustive: true, concurrency: 1 });
  return buildPlan(
    {
      scenario: { name: sc.name, durationMs: sc.durationMs },
      slos,
      range,
      grid: axes.length > 0,
      workersMin: sc.endpoint.workersMin,
      seeds,
      exhaustive: true,
      mmc: mmcInputs(sc),
      ...(prices ? { prices: { ...PRICE_BOOK_2026.gpus.A100!, gpu: 'A100' } } : {}),
    },
    outcome,
  );
}

const chart = (specs: ChartSpec[], id: string) => {
  const c = specs.find((s) => s.id === id);
  if (!c) throw new Error(`no chart ${id} among ${specs.map((s) => s.id).join(', ')}`);
  return c;
};
const labels = (c: ChartSpec) => c.series.map((s) => s.label);
const series = (c: ChartSpec, label: string) => c.series.find((s) => s.label === label)!.values;

describe('plan.html charts', () => {
  test('each SLO against workersMax: a dot per seed, their mean, the SLO line; Erlang C beside queue delay; cost per hour and per 1 000 jobs', async () => {
    const p = await smallPlan();
    const specs = planCharts(p);
    expect(specs.map((s) => s.id)).toEqual(['slo-1', 'slo-2', 'cost-per-hour', 'cost-per-1000-jobs']);
    for (const c of specs) {
      expect(c.x).toEqual([1, 2, 3, 4]);
      expect(c.xAxis).toEqual({ kind: 'value', label: 'workersMax' });
    }
    const turnaround = chart(specs, 'slo-1');
    expect(turnaround.title).toBe('turnaround_p95_ms < 20000 against workersMax');
    expect(labels(turnaround)).toEqual(['seed 3', 'seed 4', 'mean over seeds', 'SLO < 20000']);
    expect(turnaround.series.filter((s) => s.points).map((s) => s.label)).toEqual(['seed 3', 'seed 4']);
    // The dots are the runs' values, the line their mean, the limit flat at the SLO's value.
    expect(series(turnaround, 'seed 3')).toEqual(p.rows.map((r) => r.slo[0]!.values[0]));
    expect(series(turnaround, 'seed 4')).toEqual(p.rows.map((r) => r.slo[0]!.values[1]));
    series(turnaround, 'mean over seeds').forEach((m, j) => expect(m).toBeCloseTo((p.rows[j]!.slo[0]!.values[0]! + p.rows[j]!.slo[0]!.values[1]!) / 2, 5));
    expect(series(turnaround, 'SLO < 20000')).toEqual([20000, 20000, 20000, 20000]);
    expect(turnaround.series.find((s) => s.label === 'SLO < 20000')!.dash).toBe(true);
    // 2 Erlangs on 1 worker: the queue grows, the turnaround with it; 4 workers meet the SLO.
    expect(series(turnaround, 'mean over seeds')[0]!).toBeGreaterThan(20000);
    expect(series(turnaround, 'mean over seeds')[3]!).toBeLessThan(20000);

    const queue = chart(specs, 'slo-2');
    expect(labels(queue)).toEqual(['seed 3', 'seed 4', 'mean over seeds', 'SLO < 1500', 'Erlang C (M/M/c)']);
    // Erlang C has no steady state at c ≤ λ/μ = 2 (a gap), then its mean queue delay.
    const erlang = p.rows.map((r) => (r.erlangC?.stable ? r.erlangC.meanQueueDelayMs : null));
    expect(erlang.slice(0, 2)).toEqual([null, null]);
    expect(erlang[2]).toBeGreaterThan(0);
    expect(series(queue, 'Erlang C (M/M/c)')).toEqual(erlang);
    // Tens of seconds at 1 worker, tens of ms from Erlang C at 4: a log y axis; the turnaround spans less.
    expect(queue.yLog).toBe(true);
    expect(turnaround.yLog).toBeUndefined();

    expect(labels(chart(specs, 'cost-per-hour'))).toEqual(['seed 3', 'seed 4', 'mean over seeds']);
    expect(series(chart(specs, 'cost-per-hour'), 'seed 4')).toEqual(p.rows.map((r) => r.cost!.perHour[1]));
    expect(series(chart(specs, 'cost-per-1000-jobs'), 'seed 3')).toEqual(p.rows.map((r) => r.cost!.per1000Jobs[0]));

    // plan.html: the charts above the tables, with uPlot inlined; the same plan, the same bytes.
    const html = renderPlanHtml(p, sc);
    expect(html.indexOf('<figure class="chart" id="chart-slo-1">')).toBeGreaterThan(0);
    expect(html.indexOf('id="chart-cost-per-1000-jobs"')).toBeLessThan(html.indexOf('<table>'));
    expect(html).toContain('<script id="uplot-js">');
    expect(renderPlanHtml(p, sc)).toBe(html);
    // plan.md's lists (the SLOs, …) are bulleted lists in the page; every chart drawn has values.
    expect(html).toContain('<ul><li><code>turnaround_p95_ms &lt; 20000</code></li><li><code>queue_delay_mean_ms &lt; 1500</code></li></ul>');
    expectNoEmptyChartNorDashLines(html);
  });

  test('without prices: billed worker-seconds; without a queue-delay SLO: queue delay beside Erlang C', async () => {
    const p = await smallPlan([], false);
    const only = { ...p, slo: { ...p.slo, exprs: [p.slo.exprs[0]!] }, rows: p.rows.map((r) => ({ ...r, slo: [r.slo[0]!] })) };
    const specs = planCharts(only);
    expect(specs.map((s) => s.id)).toEqual(['slo-1', 'queue-delay', 'worker-seconds']);
    expect(labels(chart(specs, 'queue-delay'))).toEqual(['seed 3', 'seed 4', 'mean over seeds', 'Erlang C (M/M/c)']);
    expect(series(chart(specs, 'queue-delay'), 'seed 3')).toEqual(p.rows.map((r) => r.measured.queueDelayMeanMs[0]));
    expect(series(chart(specs, 'worker-seconds'), 'seed 3')).toEqual(p.rows.map((r) => r.workers.flexSeconds[0]! + r.workers.activeSeconds[0]!));
  });

  test('with a grid: a line per combination, and per SLO the cost-vs-SLO Pareto front', async () => {
    const p = await smallPlan([{ knob: 'workersMin', values: [0, 1] }]);
    const specs = planCharts(p);
    expect(specs.map((s) => s.id)).toEqual(['slo-1', 'slo-2', 'cost-per-hour', 'cost-per-1000-jobs', 'pareto-1', 'pareto-2']);
    expect(labels(chart(specs, 'slo-1'))).toEqual(['workersMin=0', 'workersMin=1', 'SLO < 20000']);
    const pareto = chart(specs, 'pareto-1');
    expect(pareto.xAxis).toEqual({ kind: 'value', label: 'cost per hour', unit: '$, mean over seeds' });
    expect(labels(pareto)).toEqual(['every point', 'Pareto front', 'recommendation', 'SLO < 20000']);
    // Every point, cheapest first; the front's points are the ones plan.json lists.
    expect(pareto.x).toHaveLength(p.rows.length);
    expect([...pareto.x].sort((a, b) => a - b)).toEqual(pareto.x);
    expect(series(pareto, 'every point').filter((v) => v !== null)).toHaveLength(p.rows.length);
    expect(series(pareto, 'Pareto front').filter((v) => v !== null)).toHaveLength(p.paretoFront!.length);
    expect(p.recommendation.workersMax).toBe(4);
    expect(series(pareto, 'recommendation').filter((v) => v !== null)).toHaveLength(1);
  });
});
