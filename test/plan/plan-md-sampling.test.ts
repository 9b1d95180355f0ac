/**
 * plan.md when the simulation and Erlang C differ by one because the SLO lies within the seeds'
 * sampling error: it says so, naming the point whose seeds disagree and their spread. Built from
 * sweep results (what the runs measured), not from a run, so the disagreement is certain.
 */
import { describe, expect, test } from 'vitest';
import { loadScenarioFile } from '../../src/load/scenario/loader.js';
import { parseThreshold, type Threshold } from '../../src/report/thresholds.js';
import { mmcInputs } from '../../src/plan/mmc-reference.js';
import { buildPlan } from '../../src/plan/plan-result.js';
import { renderPlanMarkdown } from '../../src/plan/render-plan-md.js';
import type { PointResult } from '../../src/plan/sweep-point.js';
import { erlangCFromMs } from '../../src/plan/erlang-c.js';

const l = loadScenarioFile('test/fixtures/plan-mmc.yaml');
if (!l.ok) throw new Error(JSON.stringify(l.issues));
const sc = l.scenario;
// Erlang C's mean queue delay at 6 workers (285 ms for this scenario), and an SLO just above it.
const at6 = erlangCFromMs(6, 500, 2000).meanQueueWait;
const slo = parseThreshold(`queue_delay_mean_ms < ${Math.ceil(at6 * 1.05)}`) as Threshold;

function point(workersMax: number, seed: number, value: number): PointResult {
  return {
    workersMax,
    knobs: {},
    workersMin: workersMax,
    seed,
    slo: [{ value, ok: value < slo.value }],
    figures: {
      jobsAccepted: 7200,
      jobsCompleted: 7200,
      turnaroundP95Ms: 5000,
      queueDelayMeanMs: value,
      queueDelayP95Ms: value * 4,
      limitedRate: 0,
      elapsedMs: 3_660_000,
      requests: 20_000,
      jobsFailed: 0,
    },
    bill: { activeSeconds: workersMax * 3660, flexSeconds: 0, workersStarted: workersMax, secondsByState: {} },
  };
}

describe('plan.md and sampling error', () => {
  test('off by one from Erlang C where the seeds disagree: plan.md names the point, the SLO and the spread', () => {
    const measured: Record<number, number[]> = { 5: [1000, 1200, 1100], 6: [at6 * 0.9, at6 * 1.2, at6], 7: [90, 95, 85], 8: [30, 28, 31], 9: [10, 9, 11] };
    const points = Object.entries(measured).map(([w, vs]) => vs.map((v, i) => point(Number(w), i + 1, v)));
    const p = buildPlan(
      {
        scenario: { name: sc.name, durationMs: sc.durationMs },
        slos: { source: '--slo', list: [slo] },
        range: [5, 6, 7, 8, 9],
        grid: false,
        workersMin: 'max',
        seeds: [1, 2, 3],
        exhaustive: false,
        mmc: mmcInputs(sc),
      },
      { lines: [{ knobs: {}, points, stoppedAfter: 9 }] },
    );
    expect(p.recommendation.workersMax).toBe(7);
    expect(p.recommendation.erlangC.workersMax).toBe(6);
    expect(p.borderline).toEqual([{ workersMax: 6, expr: slo.expr, min: at6 * 0.9, max: at6 * 1.2 }]);
    const md = renderPlanMarkdown(p, sc);
    expect(md).toContain(
      "Its smallest c for the queue-delay SLOs is 6; the simulation recommends 7 (off by one where an SLO lies within the seeds' sampling error, below).",
    );
    expect(md).toMatch(
      new RegExp(
        `- workersMax 6: the seeds disagree on \`${slo.expr.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\` \\([\\d.]+–[\\d.]+\\): its limit lies within the seeds' sampling error`,
      ),
    );
    expect(md).toContain('| 6 | no | ');
    expect(md).toContain('✗ 2/3 seeds');
  });
});
