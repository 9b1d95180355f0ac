/**
 * The "loadlab — run" dashboard against a real Prometheus loaded with backfilled runs: two example
 * scenarios run on the embedded simulator with fixed --start-time, their metrics.om go through
 * `promtool tsdb create-blocks-from openmetrics` into one TSDB, and Prometheus serves it on
 * 127.0.0.1. Every panel query (variables substituted as Grafana would, scenario chosen per run)
 * must return data, and the latency panels' p95 must agree with report.json's per-window p95
 * within the classic bucket that holds it.
 *
 * Variables: `$scenario` is the run's scenario, every other variable All. Timing, as Grafana would
 * derive it for 10 s windows seen through a data source with a 10 s scrape interval:
 * $__interval 30s, $__rate_interval 1m (≥ 2 windows, so rate() has two samples), step 10 s, the
 * range from the run's start instant to the end of its elapsed time.
 * Without prometheus/promtool the tests skip (CI=true: fail).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as hdr from 'hdr-histogram-js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { CLIENT_METRIC, DURATION_BUCKETS_S } from '../../src/contract/metric-names.js';
import { decode } from '../../src/report/histogram.js';
import type { RunResult } from '../../src/report/run-result.js';
import { dashboardByUid, describeTarget, hasData, readDashboards, resolveVariables, runTarget, substitute, type Dashboard, type Timing } from '../helpers/dashboard-targets.js';
import { createBlocks, PROMETHEUS_MISSING, prometheusPresent, startPrometheus, type Prometheus } from '../helpers/prometheus.js';

/**
 * The two runs, apart in time so neither range sees the other's samples by accident.
 * burst-rate-limit: 429s (cause rate) and re-sends on /run, one run-poll flow, a busy endpoint.
 * webhook-failing: run-webhook sessions with failed, retried and given-up webhook attempts.
 */
const RUNS = [
  { scenario: 'burst-rate-limit', start: '2024-05-01T12:00:00Z' },
  { scenario: 'webhook-failing', start: '2024-05-01T14:00:00Z' },
] as const;

/**
 * Panels that can only have data in one of the two runs, by title, and the run that feeds them.
 * Every other target must have data in both runs.
 */
const ONLY_IN: Record<string, (typeof RUNS)[number]['scenario']> = {};

const STEP_S = 10;
const RUN_UID = 'loadlab-run';

interface Run {
  scenario: string;
  report: RunResult;
  timing: Timing;
}

const present = prometheusPresent();
const dir = mkdtempSync(join(tmpdir(), 'loadlab-backfill-'));
let prom: Prometheus | undefined;
let runs: Run[] = [];
let dashboard: Dashboard;

beforeAll(async () => {
  if (!present) return;
  dashboard = dashboardByUid(readDashboards(), RUN_UID);
  const tsdb = join(dir, 'tsdb');
  runs = RUNS.map(({ scenario, start }) => {
    const out = join(dir, scenario);
    const r = spawnSync('node', ['bin/loadlab.js', 'run', `scenarios/${scenario}.yaml`, '--out', out, '--start-time', start],
      { encoding: 'utf8', env: { ...process.env, CI: 'true' }, timeout: 120_000 });
    if (r.status !== 0) throw new Error(`loadlab run ${scenario} exited ${r.status ?? r.signal}: ${r.stderr}`);
    createBlocks(join(out, 'metrics.om'), tsdb);
    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as RunResult;
    const fromS = Date.parse(start) / 1000;
    return { scenario, report, timing: { fromS, toS: fromS + report.elapsedMs / 1000, interval: '30s', rateInterval: '1m' } };
  });
  prom = await startPrometheus({ tsdbDir: tsdb });
}, 300_000);

afterAll(async () => {
  await prom?.stop();
  rmSync(dir, { recursive: true, force: true });
}, 60_000);

describe.sequential('"loadlab — run" over backfilled runs', () => {
  test('every panel target returns data over the run\'s range: in both runs, or in the run ONLY_IN names', async (ctx) => {
    if (!present) ctx.skip(PROMETHEUS_MISSING);
    const failures: string[] = [];
    const vars = new Map<string, Record<string, string>>();
    for (const run of runs) vars.set(run.scenario, await resolveVariables(dashboard, prom!, run.timing, { scenario: [run.scenario] }));
    expect(dashboard.targets.length).toBeGreaterThan(10);
    for (const t of dashboard.targets) {
      const only = Object.entries(ONLY_IN).find(([title]) => t.title.endsWith(title))?.[1];
      for (const run of runs) {
        if (only && only !== run.scenario) continue;
        const expr = substitute(t.expr, vars.get(run.scenario)!, run.timing, describeTarget(t));
        const series = await runTarget(prom!, t, expr, run.timing, STEP_S);
        if (!hasData(series)) failures.push(`${run.scenario}: ${describeTarget(t, expr)}`);
      }
    }
    expect(failures, `panel targets without data:\n${failures.join('\n')}`).toEqual([]);
  }, 300_000);

  test('the p95 of each operation\'s response time in a mid-run window lies in the classic bucket of report.json\'s per-window p95', async (ctx) => {
    if (!present) ctx.skip(PROMETHEUS_MISSING);
    const bounds = [0, ...DURATION_BUCKETS_S, Infinity];
    let checked = 0;
    for (const run of runs) {
      const w = run.report.windows!;
      const windowS = w.windowMs / 1000;
      for (const [op, col] of Object.entries(w.responseMs)) {
        // The window nearest the middle with at least 20 answers: p95 is then not the maximum.
        const mid = Math.floor(col.length / 2);
        const i = [...col.keys()].filter((k) => k < col.length - 1 && col[k] && decode({ count: 1, summary: {} as never, hdr: col[k]! }).totalCount >= 20)
          .sort((a, b) => Math.abs(a - mid) - Math.abs(b - mid))[0];
        if (i === undefined) continue;
        const h = decode({ count: 1, summary: {} as never, hdr: col[i]! });
        if (!(h instanceof hdr.JsHistogram)) throw new Error('expected a JavaScript HDR histogram');
        const p95Ms = h.getValueAtPercentile(95);
        // The classic bucket (lo, hi] its value counts in (at its HDR bucket's lowest equivalent, as metrics.om counts it).
        const lowS = h.lowestEquivalentValue(p95Ms) / 1000;
        const j = bounds.findIndex((b) => lowS <= b);
        const [lo, hi] = [bounds[j - 1]!, bounds[j]!];
        // The window's samples sit at its end; the range takes 1 ms more so both ends are in it whatever Prometheus' boundary rule.
        const endS = run.timing.fromS + ((i + 1) * w.windowMs) / 1000;
        const sel = `${CLIENT_METRIC.responseSeconds}_bucket{scenario="${run.scenario}",operation="${op}"}`;
        const expr = `histogram_quantile(0.95, sum by (le) (increase(${sel}[${windowS * 1000 + 1}ms])))`;
        const res = await prom!.query(expr, endS);
        expect(res, `${run.scenario} ${op} window ${i}: ${expr} at ${endS}`).toHaveLength(1);
        const got = Number(res[0]!.value![1]);
        expect(got, `${run.scenario} ${op} window ${i}: Prometheus p95 ${got} s, report.json p95 ${p95Ms} ms in bucket (${lo}, ${hi}]`)
          .toBeGreaterThanOrEqual(lo);
        expect(got, `${run.scenario} ${op} window ${i}: Prometheus p95 ${got} s, report.json p95 ${p95Ms} ms in bucket (${lo}, ${hi}]`)
          .toBeLessThanOrEqual(hi);
        checked++;
      }
    }
    expect(checked).toBeGreaterThanOrEqual(3);
  }, 120_000);
});
