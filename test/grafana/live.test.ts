/**
 * Both dashboards against a real Prometheus scraping live processes: `loadlab serve` (/metrics)
 * and two runners (`loadlab run --target SERVE --metrics-listen 127.0.0.1:PORT`) during a 60 s HTTP
 * run, scrape interval 1 s: one on a queue endpoint, one on a load-balancing endpoint of the same
 * serve (LB_SCENARIO, for the balancer panels). After the run, every panel target of "loadlab — run" and
 * "loadlab — simulator" returns data over the run's wall range.
 *
 * The scenario (written below) gives every panel of both something to show: run-poll at 2.5/s
 * against a /run rate limit of 25 per 10 s (429s, cause rate, re-sent after a back-off), runsync
 * callers (held requests), webhook sessions to the runner's built-in receiver (30 % of attempts
 * fail), a few jobs whose worker crashes (re-queued), a purge-queue flow, run results kept 5 s
 * (expired by retention), two GPU types with room for one worker on the first (both "Workers by
 * GPU type" panels: serve's gauge, and the runner's from /health workers.byGpu). No health flow: the runner's own /health reads (`--health-every`, its
 * default 5 s) give the queue, workers and workers-headroom panels their data.
 * Variables: `$scenario` is the run's scenario, "Sample spacing" its default (5s, as for a live
 * run), every other variable All. Intervals by Grafana's rule with the provisioned data source's
 * timeInterval (5 s): $__interval 5s (the query_range step), $__rate_interval 20s — about twenty
 * 1 s scrapes, so a late scrape on a loaded machine does not empty a window.
 * Without prometheus/promtool the test skips (CI=true: fail). Bounded: about 60 s of traffic, 10 s
 * of drain, a few seconds of start and scrape; the whole file well under 3 minutes. (30 s of
 * traffic was too few on a busy machine: the purges took every queued crasher job, and the
 * re-queued panel had no data.)
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startServe, type ServeProcess } from '../cli/serve-process.js';
import { dashboardByUid, describeTarget, hasData, readDashboards } from '../helpers/dashboard-targets.js';
import { provisionedScrapeIntervalS, resolveVariables, runTarget, type Timing } from '../helpers/grafana-templating.js';
import { freePort, PROMETHEUS_MISSING, prometheusPresent, startPrometheus, type Prometheus } from '../helpers/prometheus.js';

const NAME = 'grafana-live';
/** The prefix of the LLM engine families (METRIC.engine*), which this run's endpoint does not have. */
const ENGINE_FAMILIES = 'loadlab_engine_';
const KEY = 'live-key';
const DURATION_MS = 60_000;
const DRAIN_MS = 10_000;
/** The runner's whole life: traffic, drain, and room for a loaded machine. */
const RUN_TIMEOUT_MS = 120_000;

/**
 * Load a little above what two workers finish (about 2.5 jobs/s), so the queue is rarely empty and
 * the purge flow finds jobs to purge; short run retention, so results expire while the run goes on.
 */
const SCENARIO = {
  name: NAME,
  seed: 7,
  durationMs: DURATION_MS,
  drainMs: DRAIN_MS,
  endpoint: {
    id: 'live',
    workersMax: 2,
    idleTimeoutMs: 5000,
    coldStartMs: 500,
    jobDurationMs: { dist: 'lognormal', medianMs: 600, p95Ms: 2000 },
    retention: { runMs: 5000 },
    limits: { operations: { run: { rate: 25 } } },
    // Two GPU types, room for one worker on the first: the "Workers by GPU type" panels have both.
    gpus: ['A100', 'L4'],
    hostCapacity: { A100: 1 },
  },
  // A loaded test machine may send late (Prometheus and the rest of the suite share its cores):
  // only lateness past 5 s counts, else the run is INVALID (exit 1) though the dashboards are fine.
  openModel: { lateAfterMs: 5000 },
  webhookReceiver: { failFirstAttempts: 0, failProbability: 0.3, failStatus: 500 },
  traffic: [
    {
      name: 'submit-poll',
      arrival: { process: 'poisson', ratePerSec: 2.5 },
      client: {
        behaviour: 'run-poll',
        on429: { maxAttempts: 3, baseMs: 1000, factor: 2, maxMs: 4000, jitter: 0.3 },
        poll: { baseMs: 300, factor: 1.5, maxMs: 2000, jitter: 0.2 },
      },
    },
    { name: 'sync', arrival: { process: 'poisson', ratePerSec: 0.4 }, client: { behaviour: 'runsync', waitMs: 20_000 } },
    { name: 'hooks', arrival: { process: 'poisson', ratePerSec: 0.3 }, client: { behaviour: 'run-webhook' } },
    { name: 'crashers', arrival: { process: 'constant', ratePerSec: 0.1 }, client: { behaviour: 'run-poll', payload: { sim: { crash: true } } } },
    { name: 'purger', arrival: { process: 'constant', ratePerSec: 0.05 }, client: { behaviour: 'purge-queue' } },
    // The Streams row: a streamed chat flow with goodput targets.
    {
      name: 'chat',
      arrival: { process: 'constant', ratePerSec: 0.3 },
      client: { behaviour: 'openai-chat', stream: true, maxTokens: 8 },
      goodput: { ttftMs: 20_000 },
    },
  ],
};

/**
 * A second runner, at the same time, on a load-balancing endpoint of the same serve: custom
 * requests, a few of them crashing their worker (502, counted `dropped`), so the balancer panels
 * of both dashboards have data (serve's failures and requests waiting; the runner's failures by
 * cause from its own live /metrics).
 */
const LB_NAME = 'grafana-live-lb';
const LB_SCENARIO = {
  name: LB_NAME,
  seed: 7,
  durationMs: DURATION_MS,
  drainMs: DRAIN_MS,
  endpoint: { id: 'live-lb', type: 'load-balancer', workersMax: 2, workerConcurrency: 2, idleTimeoutMs: 5000, coldStartMs: 500, jobDurationMs: 300 },
  openModel: { lateAfterMs: 5000 },
  traffic: [
    {
      name: 'generate',
      arrival: { process: 'poisson', ratePerSec: 1 },
      client: { behaviour: 'http', method: 'POST', path: '/generate', body: { n: '{{seq}}' } },
    },
    {
      name: 'crash',
      arrival: { process: 'constant', ratePerSec: 0.2 },
      client: { behaviour: 'http', method: 'POST', path: '/generate', body: { sim: { crash: true } } },
    },
  ],
};
/** The panels that read the balancer's families: checked over LB_NAME's run (and serve's load-balancing endpoint). */
const BALANCER_FAMILIES = 'loadlab_balancer_';

const present = prometheusPresent();
const dir = mkdtempSync(join(tmpdir(), 'loadlab-live-'));
let serve: ServeProcess | undefined;
let prom: Prometheus | undefined;
let timing: Timing;
let runLog = '';

/** Runs the CLI to its end (bounded); resolves with its exit code and output. */
function runCli(args: string[]): Promise<{ code: number | null; out: string }> {
  const p = spawn('node', ['bin/loadlab.js', ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, CI: 'true' } });
  let out = '';
  p.stdout.on('data', (d: Buffer) => {
    out += d.toString();
  });
  p.stderr.on('data', (d: Buffer) => {
    out += d.toString();
  });
  return new Promise((resolve) => {
    const t = setTimeout(() => p.kill('SIGKILL'), RUN_TIMEOUT_MS);
    p.on('exit', (code) => {
      clearTimeout(t);
      resolve({ code, out });
    });
  });
}

beforeAll(async () => {
  if (!present) return;
  const file = join(dir, `${NAME}.json`);
  writeFileSync(file, JSON.stringify(SCENARIO));
  const lbFile = join(dir, `${LB_NAME}.json`);
  writeFileSync(lbFile, JSON.stringify(LB_SCENARIO));
  // serve holds both endpoints: the queue one and the load-balancing one.
  const config = join(dir, 'serve.json');
  writeFileSync(config, JSON.stringify({ seed: 7, endpoints: [SCENARIO.endpoint, LB_SCENARIO.endpoint] }));
  serve = await startServe(['--config', config, '--api-key', KEY]);
  const serveHost = new URL(serve.base).host;
  const runnerPort = await freePort();
  const lbRunnerPort = await freePort();
  prom = await startPrometheus({
    scrape: [
      { job: 'loadlab-serve', targets: [serveHost] },
      { job: 'loadlab-run', targets: [`127.0.0.1:${runnerPort}`, `127.0.0.1:${lbRunnerPort}`] },
    ],
    scrapeInterval: '1s',
  });
  const startS = Date.now() / 1000;
  const runs = await Promise.all([
    runCli(['run', file, '--target', serve.base, '--api-key', KEY, '--metrics-listen', `127.0.0.1:${runnerPort}`, '--out', join(dir, 'out')]),
    runCli(['run', lbFile, '--target', serve.base, '--api-key', KEY, '--metrics-listen', `127.0.0.1:${lbRunnerPort}`, '--out', join(dir, 'out-lb')]),
  ]);
  runLog = runs.map((r) => r.out).join('\n');
  for (const r of runs) if (r.code !== 0) throw new Error(`loadlab run exited ${r.code}:\n${r.out.slice(-3000)}`);
  // serve keeps being scraped: two more scrapes so its counters have their final values in range.
  await sleep(2500);
  timing = { fromS: Math.floor(startS), toS: Math.ceil(Date.now() / 1000), dataSourceIntervalS: provisionedScrapeIntervalS() };
}, RUN_TIMEOUT_MS + 90_000);

afterAll(async () => {
  await prom?.stop();
  serve?.stop();
  rmSync(dir, { recursive: true, force: true });
}, 60_000);

describe('both dashboards over a live 60 s HTTP run scraped every second', () => {
  // The run dashboard twice: the queue run for every panel but the balancer's, the load-balancing run for those.
  const cases: [string, Record<string, string[]>, (expr: string) => boolean][] = [
    ['loadlab-run', { scenario: [NAME] }, (expr) => !expr.includes(BALANCER_FAMILIES)],
    ['loadlab-run', { scenario: [LB_NAME] }, (expr) => expr.includes(BALANCER_FAMILIES)],
    ['loadlab-simulator', {}, () => true],
  ];
  for (const [uid, fixed, checked] of cases) {
    test(`every panel target of ${uid} returns data over the run's wall range (${JSON.stringify(fixed)})`, async (ctx) => {
      if (!present) ctx.skip(PROMETHEUS_MISSING);
      const d = dashboardByUid(readDashboards(), uid);
      const { values: vars, problems } = await resolveVariables(d, prom!, timing, fixed);
      const failures = [...problems];
      for (const t of d.targets) {
        // The LLM engine rows: this endpoint has no llm.engine (serve exports no engine series, and an HTTP
        // run sees no engine). They are checked over a backfilled llm-prefix-cache run (backfill.test.ts);
        // serve's engine series in test/server/engine-metrics.test.ts.
        if (t.expr.includes(ENGINE_FAMILIES) || !checked(t.expr)) continue;
        const { expr, series } = await runTarget(prom!, t, vars, timing);
        if (!hasData(series)) failures.push(describeTarget(t, expr));
      }
      expect(failures, `panel targets without data:\n${failures.join('\n')}\nrunner output:\n${runLog.slice(-1500)}`).toEqual([]);
    }, 120_000);
  }
});
