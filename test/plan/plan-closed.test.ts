/**
 * `loadlab plan` on a scenario whose jobs come from a closed flow: the sweep runs as for any
 * scenario, and Erlang C, which needs an arrival rate fixed in advance, says it has none instead
 * of predicting from a made-up one: plan.json's rows carry `erlangC: null`, plan.md says why and
 * shows — in its columns, the charts draw no Erlang C line, and a partial plan carries the null
 * through its JSON. An open flow beside it that submits no job (health) keeps none of this away.
 */
import { describe, expect, test } from 'vitest';
import { inlineRunner } from '../../src/plan/inline-runner.js';
import { erlangSmallestC, mmcInputs, predict } from '../../src/plan/mmc-reference.js';
import { parsePartialPlan, renderPartialPlanJson } from '../../src/plan/partial-plan.js';
import { planCharts } from '../../src/plan/plan-charts.js';
import { buildPlan, PLAN_VERSION, renderPlanJson } from '../../src/plan/plan-result.js';
import { planInputsOf, type PlanSpec } from '../../src/plan/plan-spec.js';
import { renderPlanHtml } from '../../src/plan/render-plan-html.js';
import { renderPlanMarkdown } from '../../src/plan/render-plan-md.js';
import { slosOf, type Slos } from '../../src/plan/slo.js';
import { sweep } from '../../src/plan/sweep.js';
import { scenarioSchema } from '../../src/load/scenario/schema.js';

const SLOS = ['queue_delay_mean_ms < 1500', 'turnaround_p95_ms{flow=agents} < 20000'];
const sc = scenarioSchema.parse({
  name: 'plan-closed',
  durationMs: 60_000,
  drainMs: 30_000,
  endpoint: { id: 'ep', workersMax: 4, jobDurationMs: { dist: 'exponential', meanMs: 1000 } },
  traffic: [
    { name: 'agents', arrival: { process: 'closed', users: 6, thinkTimeMs: 500 }, client: { behaviour: 'runsync' } },
    { name: 'probe', arrival: { process: 'constant', ratePerSec: 0.5 }, client: { behaviour: 'health' } },
  ],
});

describe('a plan whose jobs come from a closed flow', () => {
  test('Erlang C has no arrival rate: no prediction and no c of its own, and plan.md says why', async () => {
    const mmc = mmcInputs(sc);
    expect(mmc).toEqual({ arrivalsPerSec: null, meanJobMs: 1000 });
    expect(predict(mmc, 3)).toBeNull();
    const slos = slosOf(sc, SLOS) as Slos;
    expect(erlangSmallestC(mmc, slos.list)).toBeNull();

    const spec: PlanSpec = {
      scenario: { name: sc.name, durationMs: sc.durationMs },
      slo: { source: '--slo', exprs: SLOS },
      workers: [1, 2, 3, 4],
      grid: false,
      lines: [{}],
      workersMin: 0,
      seeds: [1],
      exhaustive: true,
      mmc,
      scenarioConfig: sc,
    };
    const runner = inlineRunner({ scenario: sc, slos: SLOS, workersMin: 0 });
    const outcome = await sweep(runner, { workers: spec.workers, seeds: spec.seeds, lines: spec.lines, exhaustive: true, concurrency: 1 });
    const p = buildPlan(planInputsOf(spec, slos.list), outcome);
    expect(p.rows.map((r) => r.erlangC)).toEqual([null, null, null, null]);
    expect(p.recommendation.erlangC).toEqual({ workersMax: null, arrivalsPerSec: null, meanJobMs: 1000 });
    // The sweep measured the loop: more workers, less queueing, and never more jobs queued than users.
    const q = p.rows.map((r) => r.measured.queueDelayMeanMs[0]!);
    expect(q[0]).toBeGreaterThan(q[3]!);
    expect(p.recommendation.workersMax).not.toBeNull();

    const md = renderPlanMarkdown(p, sc);
    expect(md).toContain('No Erlang C for this scenario: it needs an arrival rate fixed in advance, and the closed flow agents submits jobs');
    expect(md).not.toContain('Where this scenario departs from M/M/c');
    expect(md).not.toMatch(/Erlang C \(M\/M\/c\) says/);
    for (const row of md.split('\n').filter((l) => /^\| \d/.test(l))) expect(row).toMatch(/\| — \| — \|$/);

    const charts = planCharts(p);
    expect(charts.flatMap((c) => c.series.map((s) => s.label))).not.toContain('Erlang C (M/M/c)');
    expect(charts.find((c) => c.id === 'slo-1')!.subtitle).not.toMatch(/Erlang/);
    expect(renderPlanHtml(p, sc)).toContain('No Erlang C for this scenario');

    // A partial plan (plan --shard) keeps the missing rate through its JSON, and merges to the same plan.
    const json = renderPartialPlanJson({ version: PLAN_VERSION, shard: { count: 1, indices: [0] }, spec, points: [] });
    const back = parsePartialPlan(JSON.parse(json));
    if (typeof back === 'string') throw new Error(back);
    expect(back.spec.mmc).toEqual({ arrivalsPerSec: null, meanJobMs: 1000 });
    expect(JSON.parse(renderPlanJson(p)).rows[0].erlangC).toBeNull();
  }, 60_000);

  test('a closed flow that submits no job leaves Erlang C its rate', () => {
    const open = scenarioSchema.parse({
      ...sc,
      traffic: [
        { name: 'jobs', arrival: { process: 'poisson', ratePerSec: 2 }, client: { behaviour: 'runsync' } },
        { name: 'probe', arrival: { process: 'closed', users: 2, thinkTimeMs: 1000 }, client: { behaviour: 'health' } },
      ],
    });
    expect(mmcInputs(open)).toEqual({ arrivalsPerSec: 2, meanJobMs: 1000 });
  });
});
