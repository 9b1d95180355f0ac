/**
 * The workers × concurrency plan, in this thread (as `loadlab plan --jobs 1` does), on
 * test/fixtures/plan-engine.yaml: a batching LLM endpoint whose load needs 9+ one-job workers but
 * one worker batching 16. Over workersMax 1..3 × workerConcurrency 1, 4, 16 (warm workers, so a
 * point costs its workers), the cheapest point meeting the TTFT, TPOT, ITL and goodput SLOs is one
 * worker at 16; plan.md draws the grid with it marked and says Erlang C does not model batching.
 * Without an engine, the Erlang C reference is M/M/(workersMax × workerConcurrency) exactly. And a
 * bad workerConcurrency is refused, naming the flag or the field.
 */
import { describe, expect, test } from 'vitest';
import { recommendationLines } from '../../src/cli/commands/plan-write.js';
import { loadScenarioFile, parseScenario } from '../../src/load/scenario/loader.js';
import type { Scenario } from '../../src/load/scenario/schema.js';
import { renderPlan } from '../../src/plan/dry-run.js';
import { erlangC } from '../../src/plan/erlang-c.js';
import { checkCombinations, combinations, parseGrid, type GridAxis } from '../../src/plan/grid.js';
import { inlineRunner } from '../../src/plan/inline-runner.js';
import { concurrencyAt, erlangSmallestC, mmcInputs, predict, predictAt } from '../../src/plan/mmc-reference.js';
import { recommendationErlangC, rowErlangC } from '../../src/plan/plan-erlang.js';
import { buildPlan } from '../../src/plan/plan-result.js';
import { renderPlanHtml } from '../../src/plan/render-plan-html.js';
import { renderPlanMarkdown } from '../../src/plan/render-plan-md.js';
import { slosOf, type Slos } from '../../src/plan/slo.js';
import { sweep } from '../../src/plan/sweep.js';
import { parseThreshold, type Threshold } from '../../src/report/thresholds.js';
import { chartNotes, drawnCharts, expectNoEmptyChartNorDashLines } from '../helpers/page-html.js';

function load(file: string, endpoint: Record<string, unknown> = {}): Scenario {
  const l = loadScenarioFile(file);
  if (!l.ok) throw new Error(JSON.stringify(l.issues));
  if (!Object.keys(endpoint).length) return l.scenario;
  const p = parseScenario({ ...l.scenario, endpoint: { ...l.scenario.endpoint, ...endpoint } }, file);
  if (!p.ok) throw new Error(JSON.stringify(p.issues));
  return p.scenario;
}

const SLOS = ['ttft_p95_ms{flow=chat} < 500', 'tpot_p95_ms{flow=chat} < 15', 'itl_p99_ms{flow=chat} < 15', 'goodput{flow=chat} > 0.9'];

describe('plan by workers × concurrency', () => {
  test('a batching endpoint: one worker at workerConcurrency 16 is the cheapest point meeting the LLM SLOs; plan.md and plan.html draw the grid', async () => {
    const sc = load('test/fixtures/plan-engine.yaml');
    const slos = slosOf(sc, SLOS) as Slos;
    const axes = parseGrid(['workerConcurrency=1,4,16']) as GridAxis[];
    const lines = combinations(axes);
    expect(checkCombinations(sc.endpoint, lines)).toEqual([]);
    const range = [1, 2, 3];
    const seeds = [5];
    const outcome = await sweep(inlineRunner({ scenario: sc, slos: SLOS, workersMin: 'max' }), {
      workers: range,
      seeds,
      lines,
      exhaustive: true,
      concurrency: 1,
    });
    const p = buildPlan(
      { scenario: { name: sc.name, durationMs: sc.durationMs }, slos, range, grid: true, workersMin: 'max', seeds, exhaustive: true, mmc: mmcInputs(sc) },
      outcome,
    );
    expect(p.recommendation.workersMax).toBe(1);
    expect(p.recommendation.knobs).toEqual({ workerConcurrency: 16 });
    expect(p.recommendation.cheapestBy).toBe('billed worker-seconds');
    const at = (w: number, c: number) => p.rows.find((r) => r.workersMax === w && r.knobs?.workerConcurrency === c)!;
    // One job per worker cannot carry 8 one-second jobs a second on 3 workers: TTFT fails at every workersMax.
    for (const w of range) expect(at(w, 1).slo[0]!.met).toEqual([false]);
    // Batching meets every SLO, the token pace (TPOT, ITL) included: at most 16 sequences, 11.5 ms an iteration.
    const best = at(1, 16);
    expect(best.meetsAll).toBe(true);
    expect(best.slo[1]!.values[0]!).toBeLessThan(12);
    expect(best.slo[3]!.values[0]!).toBeGreaterThan(0.9);
    expect(p.paretoFront).toContainEqual({ workersMax: 1, knobs: { workerConcurrency: 16 } });
    // Erlang C does not model batching: no figure, and said so.
    expect(best.erlangC).toEqual({ stable: null, notModelled: 'batching' });
    expect(p.recommendation.erlangC).toMatchObject({ workersMax: null, notModelled: 'batching' });
    expect(recommendationLines(p)).toContain('  Erlang C: not modelled (the workers batch their jobs: llm.engine)');

    const md = renderPlanMarkdown(p, sc);
    expect(md).toContain('## Workers × concurrency');
    expect(md).toContain('| workersMax \\ workerConcurrency | 1 | 4 | 16 |');
    const row1 = md.split('\n').find((l) => l.startsWith('| 1 | ✗'))!;
    // Each cell also shows the share of request time spent waiting inside the engine (plan.json: measured.engineWaitingShare).
    expect(row1).toMatch(/\| \*\*★ ✓ \d+ worker-s · [\d.]+ ms · waiting in engine [\d.]+ %\*\* ◆ \|$/);
    for (const r of p.rows) {
      expect(r.measured.engineWaitingShare).toHaveLength(1);
      expect(r.measured.engineWaitingShare![0]).toBeGreaterThanOrEqual(0);
      expect(r.measured.engineWaitingShare![0]).toBeLessThan(1);
    }
    const share = best.measured.engineWaitingShare![0]!;
    expect(row1).toContain(`waiting in engine ${Math.round(share * 1000) / 10} %`);
    expect(md).toContain('"waiting in engine": the share of request time spent waiting inside the LLM engine');
    expect(md.match(/★/g)).toHaveLength(2); // the legend and the recommended cell
    expect(md).toContain('- workersMax 1, workerConcurrency=16: ');
    expect(md).toContain('**Erlang C does not model batching.**');
    expect(md).not.toContain('Erlang C P(wait)');
    const html = renderPlanHtml(p, sc);
    expect(html).toContain('<section id="grid"><h2>Workers × concurrency</h2>');
    expect(html.match(/<td class="rec"/g)).toHaveLength(1);
    expect(html).toContain(`<small>waiting in engine ${Math.round(share * 1000) / 10} %</small>`);
    // The heat map replaces plan.md's grid table in the page: the grid is shown once.
    expect(html.match(/Workers × concurrency/g)).toHaveLength(1);
    // openai-chat answers carry no delayTime: no queue delay to draw, so a line saying why stands
    // where its chart would be; every chart drawn has values, and plan.md's lists are lists.
    expect(p.rows.every((r) => r.measured.queueDelayMeanMs.every((v) => v === null))).toBe(true);
    const drawn = ['slo-1', 'slo-2', 'slo-3', 'slo-4', 'worker-seconds', 'pareto-1', 'pareto-2', 'pareto-3', 'pareto-4'];
    expect(drawnCharts(html).map((c) => c.id)).toEqual(drawn);
    expect(chartNotes(html)['queue-delay']).toMatch(
      /^<strong>Mean queue delay against workersMax:<\/strong> No run of the plan measured a queue delay: .*openai-chat/,
    );
    expectNoEmptyChartNorDashLines(html);
    expect(html).toContain('<li><code>ttft_p95_ms{flow=chat} &lt; 500</code></li>');
    expect(html).toMatch(/<ul><li>workersMax 1, workerConcurrency=16: \d+ billed worker-seconds ← the recommendation<\/li><li>/);
    // An SLO on queue delay has no value either: a note in place of its chart and its Pareto front, not a lone SLO line.
    const q = 'queue_delay_p95_ms < 500';
    const withQueueSlo = {
      ...p,
      slo: { ...p.slo, exprs: [...p.slo.exprs, q] },
      rows: p.rows.map((r) => ({ ...r, slo: [...r.slo, { expr: q, values: r.measured.queueDelayP95Ms, met: r.measured.queueDelayP95Ms.map(() => false) }] })),
    };
    const qHtml = renderPlanHtml(withQueueSlo, sc);
    expect(drawnCharts(qHtml).map((c) => c.id)).toEqual(drawn);
    expect(Object.keys(chartNotes(qHtml))).toEqual(['slo-5', 'pareto-5']);
    expect(chartNotes(qHtml)['slo-5']).toContain('No run of the plan measured queue_delay_p95_ms: queue delay is the delayTime');
    expectNoEmptyChartNorDashLines(qHtml);
  });

  test('without an engine, jobs per worker are independent: the reference is M/M/(workersMax × workerConcurrency), exactly Erlang C', () => {
    const sc = load('test/fixtures/plan-mmc.yaml', { workerConcurrency: 4 });
    const m = mmcInputs(sc);
    expect(m.workerConcurrency).toBe(4);
    expect(m.batching).toBeUndefined();
    // An open (Poisson) flow: Erlang C has its arrival rate.
    if (m.arrivalsPerSec === null) throw new Error('no arrival rate');
    const lambda = m.arrivalsPerSec / 1000;
    const mu = 1 / m.meanJobMs;
    for (const w of [2, 3, 5]) {
      const e = erlangC({ servers: w * 4, arrivalRate: lambda, serviceRate: mu });
      const p = predictAt(m, w, concurrencyAt(m));
      expect(p).toEqual({ ...predict(m, w * 4), servers: w * 4 });
      if (p?.stable !== true) throw new Error(`unstable at ${w}`);
      expect(p.probabilityOfWaiting).toBe(e.probabilityOfWaiting);
      expect(p.meanQueueDelayMs).toBe(e.meanQueueWait);
    }
    // A grid's workerConcurrency wins over the scenario's.
    expect(rowErlangC(m, 3, { workerConcurrency: 2 })).toMatchObject({ stable: true, servers: 6 });
    // Erlang C's smallest workersMax at c: its smallest slot count s, rounded up to whole workers.
    const slo = parseThreshold('queue_delay_mean_ms < 300') as Threshold;
    const s = erlangSmallestC(m, [slo])!;
    expect(recommendationErlangC(m, [slo], {}, true)).toMatchObject({ workersMax: Math.ceil(s / 4), workerConcurrency: 4, servers: s });
    expect(recommendationErlangC(m, [slo], { workerConcurrency: 1 }, true)).toMatchObject({ workersMax: s, servers: s });
  });

  test('dry-run worker time: exact for one job per worker, a range with concurrency, an assumption with an engine', () => {
    expect(renderPlan(load('test/fixtures/plan-mmc.yaml')).text).toMatch(/worker time: ~\d+ worker-seconds \(\d+ jobs × 2\.00 s mean job time\)/);
    expect(renderPlan(load('test/fixtures/plan-mmc.yaml', { workerConcurrency: 4 })).text).toMatch(
      /a worker runs up to 4 at once, so between ~\d+ \(every worker full\) and ~\d+ worker-seconds/,
    );
    expect(renderPlan(load('test/fixtures/plan-engine.yaml', { workerConcurrency: 30 })).text).toContain(
      'a worker batches up to 30 jobs and its iterations lengthen as the batch grows, so this is not an estimate of billed worker-seconds',
    );
  });

  test('a bad workerConcurrency: --grid names the flag and the value; plan.grid names the field', () => {
    for (const v of ['0', '1.5', '2000'])
      expect(parseGrid([`workerConcurrency=4,${v}`])).toEqual([
        `--grid "workerConcurrency=4,${v}": workerConcurrency value "${v}" is not a whole number from 1 to 1024 (jobs one worker runs at once)`,
      ]);
    const l = loadScenarioFile('test/fixtures/plan-engine.yaml');
    if (!l.ok) throw new Error('fixture');
    const bad = parseScenario({ ...l.scenario, plan: { grid: { workerConcurrency: [4, 0] } } }, 'x.yaml');
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.issues.map((i) => i.path)).toEqual(['plan.grid.workerConcurrency.1']);
    // The endpoint schema checks each combination too (what a scenario's plan.grid reaches).
    expect(checkCombinations(l.scenario.endpoint, [{ workerConcurrency: 5000 }], 'x.yaml: plan.grid')[0]).toMatch(
      /^x\.yaml: plan\.grid: workerConcurrency: .*\(in workerConcurrency=5000\)$/,
    );
  });
});
