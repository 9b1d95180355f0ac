/**
 * `loadlab run SCENARIO`: validates the scenario (exit 2 with file, field and
 * reason), runs it on the embedded simulator (default) or against `--target URL`, writes
 * report.json, report.md, report.html and metrics.om under `--out`, prints a short summary that
 * opens with the verdict (report/verdict.ts), appends it to `$GITHUB_STEP_SUMMARY` when set, and
 * exits 99 when a threshold failed, 1 when the run is INVALID (cli/verdict-exit.ts). Progress
 * goes to stderr (cli/progress/): redrawn in place on a terminal, a plain line every 10 s
 * otherwise, nothing under CI. Ctrl-C stops the run and writes its reports, marked interrupted
 * (INVALID, exit 130); a second Ctrl-C quits at once (cli/interrupt.ts).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CommandModule } from 'yargs';
import { formatIssue, loadScenarioFile, type LoadResult } from '../../load/scenario/loader.js';
import { runScenario } from '../../load/run-scenario.js';
import type { Scenario } from '../../load/scenario/schema.js';
import { parseRunResult, renderJson } from '../../report/render-json.js';
import type { RunResult } from '../../report/run-result.js';
import { CliError, EXIT } from '../exit-codes.js';
import { deepFreeze } from '../../contract/deep-freeze.js';
import { DEFAULT_CONNECTIONS, httpTargetFor } from '../../load/targets/http/http-target.js';
import { renderPlan } from '../../plan/dry-run.js';
import { lockstepApiKey, lockstepTargetFor } from '../../load/targets/lockstep/lockstep-target.js';
import { checkLockstepFresh } from '../../load/targets/lockstep/fresh-server.js';
import { DEFAULT_MAX_REQUESTS, tooLarge } from '../../plan/run-size.js';
import { displayUrl, isLoopback, redactUrl } from '../../load/targets/target-url.js';
import type { Target } from '../../load/targets/target.js';
import { UsageError } from '../../load/usage-error.js';
import { checkRunFlags, runShardingOf, type RunSharding } from './run-flags.js';
import { DEFAULT_HEALTH_EVERY_MS, healthEveryOf } from './health-every-flag.js';
import { shardOptions, type ShardArgs } from '../shard-option.js';
import { priceFlagGiven, priceOptions, pricesOf, type PriceArgs } from './price-flags.js';
import { coldStartRefusal } from '../../load/targets/sim-only-metrics.js';
import { verdict, verdictLines } from '../../report/verdict.js';
import { appendStepSummary, exitWithVerdict } from '../verdict-exit.js';
import { defaultStartTime, parseStartTime } from '../start-time.js';
import { REPORT_FILES, writeJunit, writeRenderedReports } from '../report-files.js';
import { progressReporter, type ProgressReporter } from '../progress/reporter.js';
import { catchInterrupts, type Interrupts } from '../interrupt.js';
import { startRunTracing, type RunTracing } from '../run-tracing.js';
import type { LiveMetrics } from '../live-metrics/live-metrics.js';
import type { PricesUsed } from '../../report/prices.js';
import { healthFailures } from '../../report/health-failures.js';
import { COMMANDS } from './catalog.js';
import { openWebhooks, webhookAddressOf, webhookOptions, type WebhookArgs } from './webhook-flags.js';
import type { HttpWebhookReceiver } from '../../load/targets/http/webhook-receiver.js';

export interface RunArgs extends PriceArgs, ShardArgs, WebhookArgs {
  'start-at'?: string;
  scenario: string;
  seed?: number;
  out?: string;
  target?: string;
  'api-key'?: string;
  endpoint?: string;
  'dry-run'?: boolean;
  yes?: boolean;
  lockstep?: boolean;
  connections?: number;
  junit?: string;
  'start-time'?: string;
  'max-requests'?: number;
  'metrics-listen'?: string;
  'health-every'?: string;
}

export function summary(r: RunResult, dir: string, startMs?: number): string {
  const ops = Object.entries(r.operations).map(([op, o]) => `${op} ${o.requests} (429: ${o.byStatus['429'] ?? 0}, p99 ${o.responseMs.summary.p99} ms)`);
  const failed = r.thresholds.filter((t) => !t.ok);
  return [
    ...verdictLines(verdict(r)),
    `loadlab run ${r.scenario.name}: ${r.target.kind}, seed ${r.scenario.seed}, ${r.shard && r.shard.count > 1 ? `shard ${r.shard.indices.join(',')} of ${r.shard.count}, ` : ''}${(r.elapsedMs / 1000).toFixed(0)} s ${r.target.kind === 'http' ? 'wall' : 'virtual'} in ${((r.wallClock?.wallMs ?? 0) / 1000).toFixed(1)} s wall`,
    `  requests: ${ops.join('; ')}`,
    `  jobs: ${r.jobs.accepted} accepted; ${
      Object.entries(r.jobs.outcomes ?? r.jobs.finalStatus)
        .map(([k, v]) => `${k} ${v}`)
        .join(', ') || 'none ended'
    }; expiries seen ${r.jobs.retentionExpiriesSeen}`,
    ...workersLine(r),
    ...webhooksLine(r),
    ...healthLine(r),
    ...(r.thresholds.length
      ? [
          `  thresholds: ${r.thresholds.length - failed.length}/${r.thresholds.length} passed${failed.length ? `; failed: ${failed.map((t) => `${t.expr} (got ${t.value ?? 'no data'})`).join(', ')}` : ''}`,
        ]
      : []),
    `  report: ${join(dir, 'report.md')}`,
    ...(startMs === undefined
      ? []
      : [`  metrics: ${join(dir, 'metrics.om')} (${new Date(startMs).toISOString()} to ${new Date(startMs + r.elapsedMs).toISOString()})`]),
  ].join('\n');
}

/** Workers started, billed seconds and cost (in-process runs); a line per GPU type when the endpoint lists them. */
function workersLine(r: RunResult): string[] {
  const w = r.workers;
  if (!w) return [];
  const c = w.cost;
  const usd = (v: number) => `$${v.toFixed(4)}`;
  return [
    `  workers: ${w.started} started${w.unhealthyOnStart ? ` (${w.unhealthyOnStart} unhealthy on start)` : ''}; billed ${w.billedSeconds.flex} s flex, ${w.billedSeconds.active} s active${c ? `; cost ${usd(c.perRun)} (${usd(c.perHour)} per hour, ${c.per1000Jobs === null ? 'no job completed' : `${usd(c.per1000Jobs)} per 1000 jobs`}; ${w.byGpu ? 'by GPU type' : (c.prices.gpu ?? 'prices given')}${c.prices.gpu && c.prices.priceBook ? `, price book ${c.prices.priceBook}` : ''})` : ''}${w.billing?.initializing ? '; initializing billed' : ''}`,
    ...(w.byGpu ?? []).map(
      (g) =>
        `    ${g.gpu}: ${g.started} started; billed ${g.billedSeconds.flex} s flex, ${g.billedSeconds.active} s active${g.cost ? `; cost ${usd(g.cost.perRun)}` : ''}`,
    ),
  ];
}

/** What the webhook receiver over HTTP turned away, when it turned away anything. */
function webhooksLine(r: RunResult): string[] {
  const w = r.webhooks;
  if (!w.refused && !w.malformed) return [];
  return [
    `  webhook receiver: ${w.refused ?? 0} refused (404: not a POST to its URL with the token), ${w.malformed ?? 0} malformed (400/413); not counted as deliveries`,
  ];
}

/** The runner's own /health reads (runs against a URL). */
function healthLine(r: RunResult): string[] {
  const h = r.healthSampling;
  if (!h) return r.target.kind === 'http' && r.shard && r.shard.indices[0] !== 0 ? ['  /health sampling: by shard 0, for all the shards'] : [];
  const causes = healthFailures(h);
  return [
    `  /health sampling: every ${h.everyMs} ms, ${h.answered} of ${h.requests} answered, ${h.errors} without a sample${causes ? ` (${causes})` : ''}${h.stopped ? `; stopped: ${h.stopped}` : ''}`,
  ];
}

/** The scenario in `file`, or exit 2 with its problems; `gpu` (the --gpu flag) in place of its plan.gpu for the engine's defaults. */
export function loadOrExit(file: string, gpu?: string): Scenario {
  return loadedOrExit(file, gpu).scenario;
}

/** The loader's whole answer (the scenario, and what its engine gave of its limits: `engineGiven`), or exit 2. */
export function loadedOrExit(file: string, gpu?: string): Extract<LoadResult, { ok: true }> {
  const l = loadScenarioFile(file, { gpu });
  if (!l.ok)
    throw new CliError(
      `invalid scenario (${l.issues.length} problem${l.issues.length > 1 ? 's' : ''}):\n${l.issues.map((i) => `  ${formatIssue(i)}`).join('\n')}`,
      EXIT.USAGE,
    );
  return l;
}

/** The scenario with `--endpoint` in place of its endpoint.id: a new object (a loaded scenario is frozen). */
function withEndpointId(sc: Scenario, id: string | undefined): Scenario {
  return id ? deepFreeze({ ...sc, endpoint: { ...sc.endpoint, id } }) : sc;
}

/** The HTTP or lockstep target; a lockstep server must be at its start (lockstep-fresh.ts). */
async function targetFor(sc: Scenario, a: RunArgs & { startAtMs?: number; webhooks?: HttpWebhookReceiver }): Promise<(sc: Scenario) => Target> {
  if (!a.lockstep) return asUsage(a.target, async () => httpTargetFor(sc, a));
  const make = lockstepTargetFor(sc, a);
  await asUsage(a.target, () => checkLockstepFresh(a.target!, lockstepApiKey(a)));
  return make;
}

/**
 * Runs `f`; a UsageError becomes exit 2 with its message. Any error's message loses the userinfo
 * of the target URL (undici and the lockstep admin may quote it).
 */
async function asUsage<T>(url: string | undefined, f: () => Promise<T>): Promise<T> {
  try {
    return await f();
  } catch (e) {
    if (e instanceof UsageError) throw new CliError(redactUrl(e.message, url), EXIT.USAGE);
    if (e instanceof Error && url) {
      e.message = redactUrl(e.message, url);
      if (e.stack) e.stack = redactUrl(e.stack, url);
    }
    throw e;
  }
}

export async function runCommand(a: RunArgs): Promise<number> {
  const setup = runSetupOf(a);
  // A dry run only prints the plan: no target, no key, no server contacted.
  if (a['dry-run']) {
    process.stdout.write(renderPlan(setup.sc, a.gpu).text);
    return EXIT.OK;
  }
  const prices = checkRunAllowed(a, setup);
  const opened = await openRun(a, setup);
  const r = await runWatched(a, setup, opened, prices);
  const { dir, startMs } = writeRunReports(a, setup, r);
  // Virtual-time spans go out now, on the start instant metrics.om uses; bounded by the export timeout.
  const lost = await opened.tracing?.finish(startMs);
  if (lost) process.stderr.write(`loadlab: warning: ${lost}\n`);
  opened.interrupts.dispose();
  appendStepSummary(r);
  process.stdout.write(`${summary(r, dir, startMs)}\n`);
  // Nothing more to see after Ctrl-C or an unreachable target: no wait for a final scrape.
  await opened.live?.finish(r.interrupted === undefined && r.unreachable === undefined);
  // Not PASS: a CliError with the verdict's exit code and its cause in one line (verdict-exit.ts).
  exitWithVerdict(verdict(r));
  return EXIT.OK;
}

/** What `loadlab run` takes from its flags and the scenario, checked before anything else. */
interface RunSetup {
  sc: Scenario;
  seed: number | string;
  kind: Target['kind'];
  hookAt: ReturnType<typeof webhookAddressOf>;
  healthEveryMs: number | undefined;
  sharding: RunSharding;
  startTime: number | undefined;
}

function runSetupOf(a: RunArgs): RunSetup {
  checkRunFlags(a);
  const hookAt = webhookAddressOf(a);
  // --shard / --shards / LOADLAB_SHARDS with JOB_COMPLETION_INDEX, and --start-at (run-flags.ts).
  const sharding = runShardingOf(a);
  // Of a sharded run only shard 0 reads /health.
  const healthEveryMs = healthEveryOf(a, sharding.shard);
  const sc = withEndpointId(loadOrExit(a.scenario, a.gpu), a.endpoint);
  const startTime = a['start-time'] === undefined ? undefined : parseStartTime(a['start-time']);
  const kind = !a.target ? 'in-process' : a.lockstep ? 'lockstep' : 'http';
  return { sc, seed: a.seed ?? sc.seed, kind, hookAt, healthEveryMs, sharding, startTime };
}

/**
 * Refuses, before any target is built, a run this target cannot do or that is too large (a
 * lockstep target checks its server, which is sending); returns the prices of its workers.
 */
function checkRunAllowed(a: RunArgs, { sc, kind }: RunSetup): PricesUsed | undefined {
  // Workers are billed only where the run sees them (in-process); the scenario's plan.gpu is then the default.
  const priceFlag = priceFlagGiven(a);
  if (kind !== 'in-process' && priceFlag) throw new CliError(`--${priceFlag}: only without --target: a target at a URL shows no workers to bill`, EXIT.USAGE);
  const prices = kind === 'in-process' ? pricesOf(a, sc.plan, a.scenario, sc.endpoint.gpus) : undefined;
  const blind = kind === 'in-process' ? undefined : coldStartRefusal(sc, kind);
  if (blind) throw new CliError(`${a.scenario}: ${blind}`, EXIT.USAGE);
  const big = tooLarge(sc, kind, a['max-requests'] ?? DEFAULT_MAX_REQUESTS);
  if (big) throw new CliError(`${a.scenario}: ${big}`, EXIT.USAGE);
  if (a.target && !isLoopback(a.target)) {
    const plan = renderPlan(sc);
    if (plan.requests > 1000 && !a.yes)
      throw new CliError(`${plan.text}this run sends about ${plan.requests} requests to ${displayUrl(a.target)}; add --yes to go ahead`, EXIT.USAGE);
  }
  return prices;
}

/** What a run holds open while it runs: live /metrics, the webhook receiver, the target, tracing, progress, Ctrl-C. */
interface OpenedRun {
  live: LiveMetrics | undefined;
  target: ((sc: Scenario) => Target) | undefined;
  tracing: RunTracing | undefined;
  progress: ProgressReporter;
  interrupts: Interrupts;
}

async function openRun(a: RunArgs, { sc, kind, hookAt, sharding }: RunSetup): Promise<OpenedRun> {
  // Before the target is contacted: a port in use ends the command first (exit 2).
  // Loaded only when asked for: prom-client (and through it the OpenTelemetry API) stays out of other runs.
  const live =
    a['metrics-listen'] === undefined
      ? undefined
      : await (await import('../live-metrics/live-metrics.js')).startLiveMetrics(sc, a['metrics-listen'], process.stderr);
  // Bound before the target is contacted too: a port in use is exit 2 with nothing sent.
  const webhooks = await openWebhooks(sc, a.scenario, hookAt, process.stderr);
  const target = a.target
    ? await targetFor(sc, { ...a, ...(sharding.startAtMs !== undefined ? { startAtMs: sharding.startAtMs } : {}), ...(webhooks ? { webhooks } : {}) }).catch(
        async (e: unknown) => {
          await webhooks?.close();
          throw e;
        },
      )
    : undefined;
  // OTLP traces when OTEL_EXPORTER_OTLP_ENDPOINT is set (cli/run-tracing.ts); else no tracer at all.
  const tracing = await startRunTracing(kind === 'http' ? 'wall' : 'virtual');
  const progress = progressReporter(process.stderr, process.env);
  const interrupts = catchInterrupts(() => {
    progress.clear();
    process.stderr.write('loadlab: interrupted: stopping the run and writing its reports (Ctrl-C again to quit at once)\n');
  });
  if (sharding.warning) process.stderr.write(`loadlab: warning: ${sharding.warning}\n`);
  else if (sharding.startAtMs !== undefined)
    process.stderr.write(`loadlab: waiting until ${new Date(sharding.startAtMs).toISOString()} (--start-at); Ctrl-C stops\n`);
  return { live, target, tracing, progress, interrupts };
}

/** The run itself, with progress on stderr and warnings said as they come. */
async function runWatched(a: RunArgs, { sc, seed, healthEveryMs, sharding }: RunSetup, o: OpenedRun, prices: PricesUsed | undefined): Promise<RunResult> {
  const { live, target, tracing, progress, interrupts } = o;
  const r = await asUsage(a.target, () =>
    runScenario(sc, {
      seed,
      file: a.scenario,
      ...(target ? { target } : {}),
      ...(prices ? { prices } : {}),
      onProgress: progress.onProgress,
      signal: interrupts.signal,
      ...(tracing ? { tracer: tracing.tracer } : {}),
      ...(sharding.shard ? { shard: sharding.shard } : {}),
      ...(live ? { onStart: live.onStart } : {}),
      ...(healthEveryMs !== undefined ? { healthEveryMs } : {}),
      onWarning: (message) => {
        progress.clear();
        process.stderr.write(`loadlab: warning: ${message}\n`);
      },
    }),
  ).catch(async (e: unknown) => {
    interrupts.dispose();
    progress.clear();
    await tracing?.finish(undefined);
    throw e;
  });
  progress.clear();
  live?.ended();
  return r;
}

/** report.json, then the reports rendered from its text (as `loadlab report` renders them: the same bytes), and --junit. */
function writeRunReports(a: RunArgs, { sc, startTime, sharding }: RunSetup, r: RunResult): { dir: string; startMs: number } {
  const dir = a.out ?? join('reports', sc.name);
  mkdirSync(dir, { recursive: true });
  // The start instant goes into report.json, so `loadlab report` rebuilds the same metrics.om.
  const startMs = startTime ?? sharding.startAtMs ?? defaultStartTime(r.elapsedMs);
  if (r.wallClock) r.wallClock.metricsStartMs = startMs;
  const json = renderJson(r);
  writeFileSync(join(dir, REPORT_FILES.json), json);
  const stored = parseRunResult(json);
  writeRenderedReports(dir, stored, startMs);
  if (a.junit) writeJunit(a.junit, stored);
  return { dir, startMs };
}

export const runCommandModule: CommandModule<object, RunArgs> = {
  ...COMMANDS.run,
  builder: (y) =>
    shardOptions(
      priceOptions(
        webhookOptions(
          y
            .positional('scenario', { type: 'string', demandOption: true, describe: 'Scenario file (YAML or JSON)' })
            .option('seed', { type: 'number', describe: "Seed of every random stream (default: the scenario's)" })
            .option('out', { type: 'string', describe: 'Report directory (default reports/<scenario-name>/)' })
            .option('target', { type: 'string', describe: 'Base URL of a `loadlab serve` instance or a real deployment, e.g. http://127.0.0.1:8080/v2' })
            .option('api-key', { type: 'string', describe: 'API key for --target (default: RUNPOD_API_KEY)' })
            .option('endpoint', { type: 'string', describe: "Endpoint id (default: the scenario's endpoint.id)" })
            .option('lockstep', { type: 'boolean', describe: 'With --target of `serve --clock manual`: step its clock from the runner (virtual time)' })
            .option('connections', {
              type: 'number',
              describe: `With --target: most sockets open at once (default ${DEFAULT_CONNECTIONS}); each request in flight holds one, a held runsync or stream for its whole hold, and a request finding none free waits inside the client (counted in its service time)`,
            })
            .option('dry-run', { type: 'boolean', describe: 'Print the plan (requests per operation, peak rates against the limits, worker-seconds) and stop' })
            .option('junit', { type: 'string', describe: 'Also write the thresholds as JUnit XML to this file (one test case each)' })
            .option('start-time', {
              type: 'string',
              describe:
                'Real instant of time 0 of the run in metrics.om: ISO-8601 with a zone (2024-05-01T12:00:00Z) or epoch ms. Default: now minus the run\'s length, rounded down to a second, so the run ends when it finished and shows in Grafana\'s "last N minutes". Give it for a byte-identical metrics.om',
            })
            .option('max-requests', {
              type: 'number',
              describe: `Refuse to start a run whose plan (see --dry-run) expects more requests than this; the message gives the estimate and its wall time (default ${DEFAULT_MAX_REQUESTS})`,
            })
            .option('yes', { type: 'boolean', describe: 'Allow more than 1000 requests against a non-loopback target' })
            .option('start-at', {
              type: 'string',
              describe:
                'With --target: wait until this wall instant (ISO-8601 with a zone, or epoch ms; at most 24 h ahead, at most 5 s past) and make it time 0 of the run, e.g. the same instant for every shard; report.json keeps it as shard.startAtMs and metrics.om starts there',
            })
            .option('metrics-listen', {
              type: 'string',
              describe:
                'With --target: serve the run\'s live Prometheus /metrics on HOST:PORT while it runs (":PORT" is 127.0.0.1; port 0 picks one, printed on stderr). The same names and labels as metrics.om; after the run, up until one more scrape or 15 s',
            })
            .option('health-every', {
              type: 'string',
              describe: `With --target, without --lockstep: read the endpoint's GET /health this often (a duration: 5s, 200ms, 1m; a bare number is ms; 0 turns it off; default ${DEFAULT_HEALTH_EVERY_MS / 1000}s), at time 0 and on to the end of the drain, for the report's queue and workers over time, their peaks against the limits and --metrics-listen's endpoint gauges. Of a sharded run (--shard, --shards) only shard 0 reads it, for all. Not part of the scenario's traffic: counted apart (report.json healthSampling). A read that fails (a 5xx or 429, no answer within the period (1 to 5 s), a reset or refused connection, an answer without jobs.inQueue) misses that sample and is counted by cause; sampling goes on at the same pace (a warning after 10 failures in a row). Only a 401, 403 or 404 stops it, with a warning; the run goes on either way`,
            }),
        ),
      ).epilog(
        [
          'Progress goes to stderr: one line redrawn on a terminal (at most 5 times a second), the same line every 10 s of wall time otherwise, nothing when CI is set:',
          '  traffic  43%  wall 25s  ETA 33s  requests 1.2M  429s 0  queue 3  workers 12',
          'the phase (traffic, then drain); the share of durationMs + drainMs run so far (the drain ends early once every session ended); wall time; the wall time left at the pace so far; requests and 429s so far; queue depth and running workers as the target sees them (against --target: as /health last said, see --health-every). -- means not known yet, or not visible to this target.',
          'On the embedded simulator, the report has the workers\' time by state and their billed seconds ("Workers and cost"); with --gpu (in --price-book, default 2026: RunPod\'s prices since 2026-05-13) or --price-flex/--price-active (default: the scenario\'s plan.gpu and plan.priceBook) also the cost per run, per hour and per 1000 completed jobs, billed as `loadlab plan` bills (docs/plan.md "Cost"): time initializing is not billed unless the scenario sets endpoint.billing.initializing: true; throttled and unhealthy time never is.',
          'Ctrl-C (or SIGTERM) stops the run at once and writes its reports from what was recorded, marked interrupted: verdict INVALID, exit 130. A second Ctrl-C quits at once without them.',
        ].join('\n\n'),
      ),
      'the arrivals k of each flow with k mod N = I (of a closed flow: its users i with i mod N = I), against --target only; report.json says which (shard)',
    ),
  handler: async (a) => {
    await runCommand(a);
  },
};
