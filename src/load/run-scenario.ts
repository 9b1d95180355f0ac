/**
 * The run loop. Each open flow pulls its arrival process lazily (one pending arrival per flow) and
 * starts one behaviour session per arrival at its intended time — a slow answer never delays the
 * next arrival. A closed flow's users each start a session when their last one ended (plus a
 * think time). The flows' drivers are in start-flows.ts. After the traffic phase, open sessions
 * may finish for `drainMs`. Everything runs on the target's clock; in-process, that is virtual
 * time and a seed determines every byte of the result but `wallClock`.
 */
import type { RunResult } from '../report/run-result.js';
import type { PricesUsed } from '../report/prices.js';
import { billingRule } from '../report/worker-bill.js';
import { RandomSource } from '../lib/random.js';
import type { BehaviourEnv } from './behaviours/types.js';
import { Client } from './client.js';
import { limitsOf, queueThrottleAt } from './record/headroom.js';
import { AbortCheck } from './abort-check.js';
import { Recorder, type JobOutcome } from './record/recorder.js';
import { histogramWindowMs } from '../report/window-size.js';
import { SendRates } from './record/send-rate.js';
import { SendTimes } from './record/send-times.js';
import type { Scenario } from './scenario/schema.js';
import type { Target } from './targets/target.js';
import { Reachability } from './record/reachability.js';
import { HealthSampler } from './health-sampler.js';
import { coldStartRefusal, coldStartThresholds } from './targets/sim-only-metrics.js';
import { UsageError } from './usage-error.js';
import { EndpointObservations } from './record/endpoint-observations.js';
import { StreamObservations } from './record/stream-observations.js';
import { BalancerObservations } from './record/balancer-observations.js';
import { resultOfRun, type RunParts, type WatchSections } from './run-result-of.js';
import { startFlows } from './start-flows.js';
import type { Tracer } from '@opentelemetry/api';

export const WINDOW_MS = 10_000;

export interface Progress {
  /** `traffic` until the scenario's durationMs, then `drain`. */
  phase: 'traffic' | 'drain';
  /** The run's clock (virtual or wall, as the target's). */
  nowMs: number;
  /** Wall time since the run started. */
  wallMs: number;
  /** The scenario's traffic phase and drain: the run ends by durationMs + drainMs. */
  durationMs: number;
  drainMs: number;
  requests: number;
  limited: number;
  /** As the target sees them; undefined when it cannot. */
  queueDepth: number | undefined;
  /** Running workers, as the target sees them; undefined when it cannot. */
  workers: number | undefined;
}

export interface RunOptions {
  /** Overrides the scenario's seed. */
  seed?: number | string;
  /** Builds the target; default: the embedded simulator (in-process). */
  target?: (sc: Scenario, seed: number | string) => Target;
  /** Called now and then with the run's state (progress line). */
  onProgress?: (p: Progress) => void;
  /** Scenario file name for the report. */
  file?: string;
  /** Sees every terminal job status a client read (id, status, delay and execution time). */
  onJob?: (j: JobOutcome) => void;
  /**
   * Record each job's cold-start wait (`flows.*.jobs.coldStartMs`) even without a `cold_start_*`
   * threshold (which turns it on). Off by default: the simulator then builds every domain event,
   * which made the 24 h diurnal day 2.3× slower (58 s → 134 s wall).
   */
  coldStarts?: boolean;
  /**
   * Aborted: the run stops at once (no new arrivals, no drain; requests in flight are left
   * unanswered) and the result says `interrupted` (Ctrl-C).
   */
  signal?: AbortSignal;
  /**
   * Prices of a worker-second: the result's `workers.cost` (when the target sees workers; without
   * prices, `workers` still has the billed seconds).
   */
  prices?: PricesUsed;
  /**
   * Traces each session and its requests (telemetry/session-tracing.ts); none when undefined.
   * On a wall-clock target spans carry wall time; on a virtual one, virtual ms counted from the
   * Unix epoch, for the caller to move onto the run's start instant once it knows it.
   */
  tracer?: Tracer;
  /**
   * Run shard `index` of `count`: each open flow sends only its arrivals k with k mod count = index
   * (arrivals/shard.ts), each closed flow runs only its users i with i mod count = index; the result's `shard` says so, with `startAtMs` (epoch ms of time 0,
   * `--start-at`; the target waits for it) when given. Default: the whole run.
   */
  shard?: { index: number; count: number; startAtMs?: number };
  /**
   * Called once before the traffic starts, with what the run records into: a reader of the
   * recorder between events (the runner's live /metrics) sees cumulative totals as they grow.
   */
  onStart?: (run: RunHandle) => void;
  /**
   * Read `GET /health` every this many ms of the run (health-sampler.ts) on a target that does not
   * show the endpoint itself (no `watchEndpoint`: an HTTP target); 0 or undefined: never.
   */
  healthEveryMs?: number;
  /** A problem the run goes on after (e.g. /health sampling stopped), said once as it happens. */
  onWarning?: (message: string) => void;
}

/** The recorder and target of a run that is starting (RunOptions.onStart). */
export interface RunHandle {
  readonly rec: Recorder;
  readonly target: Target;
  readonly seed: number | string;
}

export async function runScenario(sc: Scenario, opts: RunOptions = {}): Promise<RunResult> {
  const wallStart = performance.now();
  const startedAt = new Date().toISOString();
  const seed = opts.seed ?? sc.seed;
  // The simulator is loaded only for a run on it (an HTTP run's start-up does without).
  const target: Target = (opts.target ?? (await import('./targets/in-process/for-scenario.js')).inProcessTarget)(sc, seed);
  const run = await recordInto(sc, target, seed, opts);
  const live = await startFlows(sc, run, opts);
  const watch = new RunWatch(sc, run, opts);
  const tick = progressTick(sc, run, wallStart, opts.onProgress);
  // Against a URL the run lasts at least durationMs: a tail without arrivals still shows the endpoint (its workers stopping).
  const minEndMs = target.kind === 'http' ? sc.durationMs : 0;
  try {
    await target.drive(() => watch.stopped() || (live.generating === 0 && live.active === 0 && target.now() >= minEndMs), sc.durationMs + sc.drainMs, tick);
  } catch (e) {
    // Nothing may keep the process alive after a failed run (sockets, the webhook receiver).
    await target.close().catch(() => undefined);
    throw e;
  }
  const interrupted = opts.signal?.aborted === true;
  watch.end();
  tick(true);
  const elapsedMs = Math.round(target.now());
  live.sessions?.finish(target.now());
  await target.close();
  const result = resultOfRun(sc, run, watch.sections(), {
    elapsedMs,
    interrupted,
    ...(opts.file ? { file: opts.file } : {}),
    ...(opts.shard ? { shard: opts.shard } : {}),
    ...(opts.prices ? { prices: opts.prices } : {}),
  });
  const wallMs = performance.now() - wallStart;
  const requests = Object.values(result.operations).reduce((n, o) => n + o.requests, 0);
  result.wallClock = {
    startedAt,
    wallMs: Math.round(wallMs),
    ...(target.clock === 'virtual' ? { simulatedRequestsPerWallSecond: Math.round(requests / (wallMs / 1000)) } : {}),
  };
  return result;
}

/**
 * The recorder, client and client-side randomness of a run, wired to what the target can show
 * (cold starts, the endpoint, the workers' bill, webhooks); `onStart` sees them before traffic.
 */
async function recordInto(sc: Scenario, target: Target, seed: number | string, opts: RunOptions): Promise<RunParts> {
  const rec = new Recorder(WINDOW_MS, sc.openModel.lateAfterMs, histogramWindowMs(sc.durationMs + sc.drainMs));
  const rates = new SendRates(sc.endpoint.limits.windowMs);
  const client = new Client(
    target,
    rec,
    { maxInFlight: sc.openModel.maxInFlight, maxWaitMs: sc.openModel.maxWaitMs },
    limitsOf(sc.endpoint),
    queueThrottleAt(sc.endpoint),
    rates,
  );
  const webhooks: BehaviourEnv['webhooks'] = new Map();
  // Client-side randomness has its own seed, apart from the simulator's streams: it cannot shift them.
  const rand = new RandomSource(`${seed}/clients`);
  rec.onJob = opts.onJob;
  if (opts.coldStarts || coldStartThresholds(sc).length) observeColdStarts(sc, target, rec);
  rec.endpointWatcher = target.watchEndpoint?.(rec.histWindowMs);
  if (target.kind === 'http')
    rec.observations = new EndpointObservations(
      rand.stream('observations'),
      new StreamObservations(rand.stream('stream-observations')),
      sc.endpoint.type === 'load-balancer' ? new BalancerObservations(rand.stream('balancer-observations')) : undefined,
    );
  // A send can be late only on a wall clock or under an in-flight cap: only then is the second judgement's data kept.
  if (target.clock === 'wall' || sc.openModel.maxInFlight !== undefined) rec.sendTimes = new SendTimes(rec.histWindowMs);
  const bill = target.watchWorkers?.(billingRule(sc.endpoint));
  opts.onStart?.({ rec, target, seed });
  const attempts = sc.endpoint.webhook.attempts;
  if (sc.traffic.some((f) => f.client.behaviour === 'run-webhook')) {
    await target.receiveWebhooks(sc.webhookReceiver, rand.stream('webhook-receiver'), (d, ok) => {
      webhooks.get(d.jobId)?.(d.attempt, ok, !ok && d.attempt >= attempts, d.body);
    });
  }
  return { seed, target, rec, rates, client, rand, webhooks, bill };
}

/**
 * What may end a run early, and what watches the endpoint apart from the traffic: Ctrl-C (the
 * signal), a failed `abortOnFail` check, an unreachable target, and the `/health` sampler.
 */
class RunWatch {
  private readonly signal: AbortSignal | undefined;
  private readonly health: HealthSampler | undefined;
  /** A /health refused with 401, 403 or 404: said at the end unless the run is unreachable. */
  private refusedHealth: string | undefined;
  private readonly onWarning: ((message: string) => void) | undefined;
  private readonly reach: Reachability | undefined;
  private aborted: RunResult['aborted'];

  constructor(sc: Scenario, { target, rec, client }: RunParts, opts: RunOptions) {
    this.signal = opts.signal;
    this.onWarning = opts.onWarning;
    // The endpoint's queue and workers from /health, where the target cannot show them (not a flow: see health-sampler.ts).
    // Only a /health refused with 401, 403 or 404 stops the sampling. It may be the whole target's (wrong key, endpoint or URL):
    // that warning waits for the end, and an unreachable run's own message says it instead. Other failures are counted and read past.
    this.health =
      opts.healthEveryMs && !target.watchEndpoint
        ? new HealthSampler(
            target,
            rec,
            opts.healthEveryMs,
            (why) => {
              this.refusedHealth = `/health sampling stopped: ${why}; the report has the samples read before`;
            },
            (q) => (client.lastQueueDepth = q),
            (message) => this.onWarning?.(message),
          )
        : undefined;
    this.health?.start();
    // A target at a URL (not the embedded simulator): a run whose first 20 answers all say "wrong key / endpoint / URL" stops there.
    this.reach = target.reportUrl === undefined ? undefined : new Reachability();
    const reach = this.reach;
    if (reach) client.watch = (res) => reach.see(res.status, res.error, res.timedOut);
    const abort = AbortCheck.of(sc, rec);
    if (abort) {
      // At each 10 s window end until a check fails; the drive's stop() then ends the run.
      const checkAt = (k: number): void => {
        target.at(k * WINDOW_MS, () => {
          this.aborted = abort.check(target.now());
          if (!this.aborted) checkAt(k + 1);
        });
      };
      checkAt(1);
    }
  }

  stopped(): boolean {
    return this.signal?.aborted === true || this.aborted !== undefined || this.reach?.tripped === true;
  }

  /** After the drive: the sampler stops; a refused /health is said unless the run was unreachable. */
  end(): void {
    this.health?.end();
    if (this.refusedHealth && !this.reach?.result()) this.onWarning?.(this.refusedHealth);
  }

  sections(): WatchSections {
    const unreachable = this.reach?.result();
    return {
      ...(unreachable ? { unreachable } : {}),
      ...(this.health ? { healthSampling: this.health.result() } : {}),
      ...(this.aborted ? { aborted: this.aborted } : {}),
    };
  }
}

/** Samples the target's view of the endpoint into the recorder and reports progress (now and then, and at the end). */
function progressTick(sc: Scenario, { target, rec }: RunParts, wallStart: number, onProgress: RunOptions['onProgress']): (atEnd?: boolean) => void {
  return (atEnd = false) => {
    const p = target.probe();
    // The run's end closes its last window: a sample there is that window's, not one after the run
    // (a run ending at 70 000 ms has 7 windows of 10 s, in the timeline as in `windows`).
    if (p) rec.endpointSeen(atEnd ? Math.max(0, target.now() - 1) : target.now(), p.queueDepth, p.runningWorkers);
    if (!onProgress) return;
    let requests = 0;
    let limited = 0;
    for (const o of rec.ops.values()) {
      requests += o.requests;
      limited += o.status(429);
    }
    const nowMs = target.now();
    onProgress({
      phase: nowMs < sc.durationMs ? 'traffic' : 'drain',
      nowMs,
      wallMs: performance.now() - wallStart,
      durationMs: sc.durationMs,
      drainMs: sc.drainMs,
      requests,
      limited,
      // The target's own view, else the last /health answer read (queue, then running workers: ENDPOINT_SERIES order).
      queueDepth: p ? p.queueDepth : rec.health.latest?.[0],
      workers: p ? p.runningWorkers : rec.health.latest?.[2],
    });
  };
}

/**
 * Wires the target's cold starts into the recorder; a `cold_start_*` threshold on a target that
 * cannot see them is a usage error (the CLI refuses it earlier, by kind, before any target exists).
 */
function observeColdStarts(sc: Scenario, target: Target, rec: Recorder): void {
  if (target.watchColdStarts) rec.jobTimes.coldStartsFrom(target.watchColdStarts());
  else {
    const refusal = coldStartRefusal(sc, target.kind);
    if (refusal) throw new UsageError(refusal);
  }
}
