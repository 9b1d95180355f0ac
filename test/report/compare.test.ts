/**
 * The comparison of two runs and the regression rule of `--fail-on-regression` (docs/compare.md):
 * worse by more than PCT % of A and by at least the floor (1 ms, 0.1 ms for stream times, 0.1 percentage point); from a
 * base of 0 the floor alone. On real runs of the simulator and their stored report.json.
 */
import { describe, expect, test } from 'vitest';
import { runScenario } from '../../src/load/run-scenario.js';
import { parseScenario } from '../../src/load/scenario/loader.js';
import { compareRuns } from '../../src/report/compare/compare.js';
import { metricRow, type MetricSpec } from '../../src/report/compare/metric-row.js';
import { isRegression, regressions, STREAM_TIME_FLOOR_MS } from '../../src/report/compare/regression.js';
import { compareCharts } from '../../src/report/compare/compare-charts.js';
import { renderCompareHtml } from '../../src/report/compare/render-compare-html.js';
import { renderCompareMarkdown } from '../../src/report/compare/render-compare-md.js';
import { parseRunResult, renderJson } from '../../src/report/render-json.js';
import type { RunResult } from '../../src/report/run-result.js';

const P95: MetricSpec = { label: 'response p95', unit: 'ms', better: 'lower', gated: true };
const RATE: MetricSpec = { label: '429 rate', unit: 'rate', better: 'lower', gated: true };
const ITL: MetricSpec = { label: 'ITL p50', unit: 'ms', better: 'lower', gated: true, floor: STREAM_TIME_FLOOR_MS };

describe('the regression rule', () => {
  const CASES: [MetricSpec, number | null, number, number, boolean, string][] = [
    [P95, 100, 110, 10, false, 'exactly PCT % worse is not more than PCT %'],
    [P95, 100, 111, 10, true, 'more than PCT % and at least 1 ms'],
    [P95, 100, 90, 0, false, 'better'],
    [P95, 0, 1, 50, true, 'from 0 ms, 1 ms counts whatever PCT'],
    [P95, 3, 3, 0, false, 'the same, even at 0 %'],
    [RATE, 0, 0.0009, 0, false, 'under 0.1 percentage point'],
    [RATE, 0, 0.001, 0, true, 'from 0 %, 0.1 pp counts'],
    [RATE, 0.2, 0.2009, 0, false, '+0.09 pp: under the floor'],
    [RATE, 0.02, 0.023, 10, true, '2 % → 2.3 %: +15 % and +0.3 pp'],
    [{ ...P95, gated: false }, 100, 500, 10, false, 'a metric the rule does not check (execution time)'],
    [P95, null, 500, 10, false, 'no data in A'],
    [P95, 6, 6.9, 10, false, '+15 % but under 1 ms'],
    [ITL, 6, 6.9, 10, true, 'a stream time (0.01 ms): +15 % and over its 0.1 ms floor'],
    [ITL, 0, 0.05, 0, false, 'a stream time from 0: under 0.1 ms'],
  ];
  for (const [spec, a, b, pct, regressed, why] of CASES) {
    test(`${spec.label} ${a} → ${b} at ${pct} %: ${regressed ? 'regression' : 'none'} (${why})`, () => {
      expect(isRegression(metricRow(spec, a, b), pct)).toBe(regressed);
    });
  }

  test('directions: lower latency better, more 2xx better, requests only more or fewer', () => {
    expect(metricRow(P95, 100, 90).direction).toBe('better');
    expect(metricRow({ label: '2xx', unit: 'count', better: 'higher' }, 100, 90).direction).toBe('worse');
    expect(metricRow({ label: 'requests', unit: 'count', better: 'neither' }, 100, 120)).toMatchObject({ direction: 'more', delta: 20, pct: 20 });
    expect(metricRow(P95, 0, 5)).toMatchObject({ direction: 'worse', pct: null });
  });
});

async function run(raw: Record<string, unknown>): Promise<RunResult> {
  const l = parseScenario(raw, 'inline');
  if (!l.ok) throw new Error(JSON.stringify(l.issues));
  // As `loadlab compare` reads it: from report.json's text.
  return parseRunResult(renderJson(await runScenario(l.scenario)));
}

const scenario = (workersMax: number) => ({
  name: 'queueing',
  durationMs: 60_000,
  endpoint: { id: 'ep', workersMax, jobDurationMs: 1000 },
  traffic: [
    {
      name: 'poll',
      arrival: { process: 'constant', ratePerSec: 3 },
      client: { behaviour: 'run-poll', poll: { baseMs: 500, factor: 1, maxMs: 500, jitter: 0 } },
    },
  ],
});

describe('compareRuns', () => {
  test('a slower endpoint (B): queue delay and turnaround regress, execution is reported but not judged', async () => {
    const [a, b] = [await run(scenario(5)), await run(scenario(2))];
    const c = compareRuns({ file: 'a.json', result: a }, { file: 'b.json', result: b });
    expect(c.warnings).toEqual([]);
    const flow = c.flows.find((g) => g.name === 'poll')!;
    const byLabel = Object.fromEntries(flow.rows.map((r) => [r.label, r]));
    expect(byLabel['queue delay p95']).toMatchObject({
      a: a.flows.poll!.jobs!.queueDelayMs.summary.p95,
      b: b.flows.poll!.jobs!.queueDelayMs.summary.p95,
      direction: 'worse',
    });
    expect(byLabel['execution p50']).toMatchObject({ direction: 'same', gated: false });
    const names = regressions(c, 10).map((x) => `${x.where}: ${x.row.label}`);
    expect(names).toEqual(expect.arrayContaining(['flow poll: queue delay p95', 'flow poll: turnaround p99']));
    expect(names.some((n) => n.includes('execution'))).toBe(false);
  });

  test('a version-1 report compares: its per-flow job times are n/a, never a regression', async () => {
    const b = await run(scenario(2));
    const v1 = parseRunResult(JSON.stringify({ ...b, version: 1, windows: undefined, flows: { poll: { ...b.flows.poll, jobs: undefined } } }));
    const c = compareRuns({ file: 'old.json', result: v1 }, { file: 'new.json', result: b });
    expect(c.warnings).toContain('A is a version-1 report: no per-flow job times');
    expect(c.flows[0]!.rows.find((r) => r.label === 'turnaround p99')).toMatchObject({ a: null, direction: 'n/a' });
    expect(regressions(c, 0).filter((x) => x.where.startsWith('flow'))).toEqual([]);
    expect(renderCompareMarkdown(c)).toMatch(/\| turnaround p99 \| – \| [\d ]+ ms \| – \| – \| n\/a \|/);
    const html = renderCompareHtml(c, {}, compareCharts(v1, b));
    expect(html).toContain('<figure class="chart" id="chart-requests">');
    expect(html).toContain('Run A has no per-window histograms (a version-1 report, or a blast)');
  });
});
