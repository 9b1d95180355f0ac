/**
 * The "loadlab — run" dashboard against a real Prometheus loaded with backfilled runs: two example
 * scenarios (and llm-prefix-cache for the LLM engine row: ENGINE_RUN; gpu-fallback for the workers by GPU type: GPU_RUN; load-balancer for the balancer's failures: LB_RUN) run on the embedded simulator with fixed --start-time, their metrics.om go through
 * `promtool tsdb create-blocks-from openmetrics` into one TSDB, and Prometheus serves it on
 * 127.0.0.1. Every panel query (variables substituted as Grafana would, scenario chosen per run)
 * must return data, and the latency panels' p95 must agree with report.json's per-window p95
 * within the classic bucket that holds it.
 *
 * Variables: `$scenario` is the run's scenario, "Sample spacing" (`$resolution`) the run's window
 * (10s, as docs/grafana.md tells a user to set it for a backfilled run), every other variable All.
 * Intervals by Grafana's rule (test/helpers/grafana-templating.ts): min step 10 s, so
 * $__interval 10s (the query_range step) and $__rate_interval 40s; the range is from the run's
 * start instant to the end of its elapsed time (rounded up to the second).
 * Without prometheus/promtool the tests skip (CI=true: fail).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as hdr from 'hdr-histogram-js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { CLIENT_METRIC, DURATION_BUCKETS_S, METRIC } from '../../src/contract/metric-names.js';
import { decode } from '../../src/report/histogram.js';
import type { RunResult } from '../../src/report/run-result.js';
import { dashboardByUid, describeTarget, hasData, readDashboards, type Dashboard } from '../helpers/dashboard-targets.js';
import { provisionedScrapeIntervalS, resolveVariables, runTarget, substitute, type Timing } from '../helpers/grafana-templating.js';
import { createBlocks, PROMETHEUS_MISSING, prometheusPresent, startPrometheus, type Prometheus } from '../helpers/prometheus.js';

/**
 * The two runs, apart in time so neither range sees the other's samples by accident.
 * steady-mix: four flows (run-poll, runsync, run-stream, health), so every operation's response
 * time and every job histogram has data, and runsync answers take seconds (the p95 check is not
 * all 0 ms, as in-process answers to /run and /status are).
 * webhook-failing: run-webhook sessions with failed, retried and given-up webhook attempts: the
 * only example with webhooks.
 * 429s: metrics.om has the 429 counters by cause in every run (zero when nothing was limited), so
 * their panels have data in both; test/report covers non-zero 429 counts.
 */
const RUNS = [
  { scenario: 'steady-mix', start: '2024-05-01T12:00:00Z' },
  { scenario: 'webhook-failing', start: '2024-05-01T14:00:00Z' },
] as const;

/**
 * Targets that can only have data in one of the two runs ("panel title [refId]"), and the run that
 * feeds them. Every other target must have data in both runs.
 * - Webhook attempts by outcome (loadlab_webhook_attempts_total): metrics.om has the family only
 *   when the run made webhook attempts; steady-mix makes none.
 * - The Streams row: only steady-mix streams (its run-stream flow, with goodput targets).
 */
const ONLY_IN: Record<string, (typeof RUNS)[number]['scenario']> = {
  'Webhook attempts/s by outcome [A]': 'webhook-failing',
  ...Object.fromEntries(
    [
      'Time to first token p50 / p95 / p99 by flow [A]',
      'Time to first token p50 / p95 / p99 by flow [B]',
      'Time to first token p50 / p95 / p99 by flow [C]',
      'Inter-token latency and time per output token p95 by flow [A]',
      'Inter-token latency and time per output token p95 by flow [B]',
      'Output tokens/s by flow [A]',
      'Goodput by flow [A]',
    ].map((t) => [t, 'steady-mix'] as const),
  ),
};

/**
 * The LLM engine row reads families only a run of an `llm.engine` endpoint has: its targets are
 * checked over llm-prefix-cache (an engine with a bounded KV cache and prefix caching: every
 * engine family has data), and only they are (its other panels are not what this run is for).
 */
const ENGINE_RUN = { scenario: 'llm-prefix-cache', start: '2024-05-01T16:00:00Z' } as const;
const ENGINE_ROW = 'loadlab_engine_';

/**
 * The "Workers by GPU type" panel reads a family only a run of an endpoint that lists its gpus
 * has: it is checked over gpu-fallback (workers on both of its types), and only it is.
 */
const GPU_RUN = { scenario: 'gpu-fallback', start: '2024-05-01T18:00:00Z' } as const;
const GPU_PANEL = CLIENT_METRIC.endpointWorkersByGpu;

/**
 * The balancer panel reads a family only a run of a load-balancing endpoint has: it is checked over
 * load-balancer (a burst past its workers' room, some requests answered no-workers), and only it is.
 */
const LB_RUN = { scenario: 'load-balancer', start: '2024-05-01T20:00:00Z' } as const;
const LB_PANEL = METRIC.balancerFailed;

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
let engineRun: Run;
let gpuRun: Run;
let lbRun: Run;
let dashboard: Dashboard;

beforeAll(async () => {
  if (!present) return;
  dashboard = dashboardByUid(readDashboards(), RUN_UID);
  const tsdb = join(dir, 'tsdb');
  const all = [ENGINE_RUN, GPU_RUN, LB_RUN, ...RUNS].map(({ scenario, start }): Run => {
    const out = join(dir, scenario);
    const r = spawnSync('node', ['bin/loadlab.js', 'run', `scenarios/${scenario}.yaml`, '--out', out, '--start-time', start], {
      encoding: 'utf8',
      env: { ...process.env, CI: 'true' },
      timeout: 120_000,
    });
    if (r.status !== 0) throw new Error(`loadlab run ${scenario} exited ${r.status ?? r.signal}: ${r.stderr}`);
    createBlocks(join(out, 'metrics.om'), tsdb);
    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as RunResult;
    const fromS = Date.parse(start) / 1000;
    return { scenario, report, timing: { fromS, toS: Math.ceil(fromS + report.elapsedMs / 1000), dataSourceIntervalS: provisionedScrapeIntervalS() } };
  });
  [engineRun, gpuRun, lbRun, ...runs] = all as [Run, Run, Run, ...Run[]];
  prom = await startPrometheus({ tsdbDir: tsdb });
}, 300_000);

afterAll(async () => {
  await prom?.stop();
  rmSync(dir, { recursive: true, force: true });
}, 60_000);

describe.sequential('"loadlab — run" over backfilled runs', () => {
  test("every panel target returns data over the run's range: in both runs, or in the run ONLY_IN names", async (ctx) => {
    if (!present) ctx.skip(PROMETHEUS_MISSING);
    const failures: string[] = [];
    const vars = new Map<string, Record<string, string>>();
    for (const run of runs) {
      const resolved = await resolveVariables(dashboard, prom!, run.timing, fixedVariables(run));
      failures.push(...resolved.problems.map((p) => `${run.scenario}: ${p}`));
      vars.set(run.scenario, resolved.values);
    }
    expect(dashboard.targets.length).toBeGreaterThan(10);
    for (const run of [engineRun, gpuRun, lbRun]) {
      const resolved = await resolveVariables(dashboard, prom!, run.timing, fixedVariables(run));
      failures.push(...resolved.problems.map((p) => `${run.scenario}: ${p}`));
      vars.set(run.scenario, resolved.values);
    }
    for (const t of dashboard.targets) {
      const only = ONLY_IN[`${t.title} [${t.refId}]`];
      for (const run of only1(t.expr) ?? runs) {
        if (only && only !== run.scenario) continue;
        const { expr, series } = await runTarget(prom!, t, vars.get(run.scenario)!, run.timing);
        if (!hasData(series)) failures.push(`${run.scenario}: ${describeTarget(t, expr)}`);
      }
    }
    expect(failures, `panel targets without data:\n${failures.join('\n')}`).toEqual([]);
  }, 300_000);

  test("the balancer's failures by cause: per window, their totals at the run's end are report.json's", async (ctx) => {
    if (!present) ctx.skip(PROMETHEUS_MISSING);
    const want = lbRun.report.operations.lb!.balancerFailed!;
    expect(want['no-workers'], 'the example has no-workers answers').toBeGreaterThan(0);
    const at = async (s: number) =>
      Object.fromEntries((await prom!.query(`${METRIC.balancerFailed}{scenario="load-balancer"}`, s)).map((x) => [x.metric.cause, Number(x.value![1])]));
    expect(await at(lbRun.timing.toS)).toEqual(want);
    // Per window: at the end of each window, the count so far of report.json's timeline column.
    const col = lbRun.report.timeline.balancerNoWorkers!;
    const windowS = lbRun.report.timeline.windowMs / 1000;
    let sofar = 0;
    const seen: number[] = [];
    const wanted: number[] = [];
    for (let i = 0; i < col.length - 1; i++) {
      sofar += col[i]!;
      wanted.push(sofar);
      seen.push((await at(lbRun.timing.fromS + (i + 1) * windowS))['no-workers']!);
    }
    expect(seen).toEqual(wanted);
    expect([wanted[0], Math.max(...wanted) > 0], 'none at first, some before the last window (not only at the run end)').toEqual([0, true]);
  }, 60_000);

  test("every latency p95 (response time per operation, job histograms per flow) in a mid-run window lies in the classic bucket of report.json's per-window p95", async (ctx) => {
    if (!present) ctx.skip(PROMETHEUS_MISSING);
    const failures: string[] = [];
    let checked = 0;
    for (const run of runs) {
      const vars = (await resolveVariables(dashboard, prom!, run.timing, fixedVariables(run))).values;
      for (const c of latencyCases(run)) {
        const i = midWindow(c.col);
        if (i === undefined) continue;
        const { p95Ms, lo, hi } = classicBucketOfP95(c.col[i]!);
        const endS = run.timing.fromS + ((i + 1) * c.windowMs) / 1000;
        // The window's samples sit at its end; 1 ms more so both ends are in range whatever Prometheus' boundary rule.
        // The panels' own expressions get that window as $__rate_interval (on the dashboard it spans four windows).
        const win = `${c.windowMs + 1}ms`;
        const iv = { intervalS: c.windowMs / 1000, rateIntervalS: (c.windowMs + 1) / 1000 };
        const what = `${run.scenario} ${c.family}{${c.label}="${c.value}"} window ${i} (report.json p95 ${p95Ms} ms: bucket (${lo}, ${hi}] s)`;
        const direct = `histogram_quantile(0.95, sum by (le) (increase(${c.family}_bucket{scenario="${run.scenario}",${c.label}="${c.value}"}[${win}])))`;
        const panels = dashboard.targets.filter((t) => t.expr.includes('histogram_quantile(0.95') && t.expr.includes(`${c.family}_bucket`));
        if (!panels.length) failures.push(`${what}: no p95 panel reads ${c.family}_bucket`);
        const queries = [
          { label: 'direct', expr: direct },
          ...panels.map((t) => ({
            label: describeTarget(t),
            expr: substitute(t.expr, { ...vars, [c.label]: c.value }, run.timing, describeTarget(t), iv),
          })),
        ];
        for (const q of queries) {
          const got = (await prom!.query(q.expr, endS)).filter((x) => (x.metric[c.label] ?? c.value) === c.value).map((x) => Number(x.value![1]));
          if (got.length !== 1 || !(got[0]! >= lo && got[0]! <= hi)) failures.push(`${what}: ${q.label}: ${q.expr} at ${endS} gave [${got.join(', ')}]`);
        }
        checked++;
      }
    }
    expect(failures, failures.join('\n')).toEqual([]);
    expect(checked, 'latency series with a mid-run window of at least 5 samples').toBeGreaterThanOrEqual(10);
  }, 120_000);
});

/** The one run that feeds a target reading a family only some runs have (the engine row, workers by GPU, the balancer). */
function only1(expr: string): Run[] | undefined {
  if (expr.includes(ENGINE_ROW)) return [engineRun];
  if (expr.includes(GPU_PANEL)) return [gpuRun];
  if (expr.includes(LB_PANEL)) return [lbRun];
  return undefined;
}

/** The run's scenario, and "Sample spacing" set to its window as docs/grafana.md says. */
function fixedVariables(run: Run): Record<string, string[]> {
  return { scenario: [run.scenario], resolution: [`${run.report.windows!.windowMs / 1000}s`] };
}

interface LatencyCase {
  family: string;
  label: 'operation' | 'flow';
  value: string;
  /** Per-window HDR histograms (base64). */
  col: string[];
  windowMs: number;
}

/** The per-window histograms report.json holds: response time per operation, the job histograms per flow. */
function latencyCases(run: Run): LatencyCase[] {
  const w = run.report.windows!;
  const jobs = [
    ['turnaroundMs', CLIENT_METRIC.turnaroundSeconds],
    ['queueDelayMs', CLIENT_METRIC.queueDelaySeconds],
    ['executionMs', CLIENT_METRIC.executionSeconds],
  ] as const;
  return [
    ...Object.entries(w.responseMs).map(
      ([op, col]): LatencyCase => ({ family: CLIENT_METRIC.responseSeconds, label: 'operation', value: op, col, windowMs: w.windowMs }),
    ),
    ...Object.entries(w.flows).flatMap(([flow, f]) =>
      jobs.map(([key, family]): LatencyCase => ({ family, label: 'flow', value: flow, col: f[key], windowMs: w.windowMs })),
    ),
  ];
}

const windowHistogram = (b64: string) => decode({ count: 1, summary: { min: 0, mean: 0, p50: 0, p90: 0, p95: 0, p99: 0, p999: 0, max: 0 }, hdr: b64 });

/** The full window (not the run's last, shorter one) nearest the middle with at least 5 samples. */
function midWindow(col: readonly string[]): number | undefined {
  const mid = Math.floor(col.length / 2);
  return [...col.keys()]
    .filter((k) => k < col.length - 1 && col[k] && windowHistogram(col[k]!).totalCount >= 5)
    .sort((a, b) => Math.abs(a - mid) - Math.abs(b - mid))[0];
}

/** report.json's p95 of one window, and the classic bucket (lo, hi] in seconds that metrics.om counts it in (at its HDR bucket's lowest equivalent). */
function classicBucketOfP95(b64: string): { p95Ms: number; lo: number; hi: number } {
  const h = windowHistogram(b64);
  if (!(h instanceof hdr.JsHistogram)) throw new Error('expected a JavaScript HDR histogram');
  const p95Ms = h.getValueAtPercentile(95);
  // Prometheus interpolates in the first bucket from 0, and answers the highest finite bound for +Inf.
  const bounds = [...DURATION_BUCKETS_S, Infinity];
  const j = bounds.findIndex((b) => h.lowestEquivalentValue(p95Ms) / 1000 <= b);
  return { p95Ms, lo: j > 0 ? bounds[j - 1]! : 0, hi: bounds[j]! };
}
