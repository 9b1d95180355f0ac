/**
 * One simulated endpoint: its queue, workers, jobs and their lifecycle, retention,
 * limits and webhooks. Every method is synchronous and runs at the scheduler's current time.
 * Request validation is the API layer's job; what reaches here is trusted.
 */
import type { EndpointConfig } from '../contract/endpoint-config.js';
import type { Operation } from '../contract/operations.js';
import type { HealthBody } from '../contract/health-body.js';
import { sampler } from '../sampling/registry.js';
import type { LimitCause } from '../contract/sim-events.js';
import type { EventBus } from './event-bus.js';
import type { JobIds } from './ids.js';
import { JobTable } from './job-table.js';
import { JobStreams } from './job-streams.js';
import { Retention, type ExpiryReason } from './retention.js';
import {
  chunksOf,
  delayOf,
  DEFAULT_TTL_MS,
  extras,
  GONE,
  isGone,
  isLowPriority,
  isTerminal,
  newJob,
  ttlOf,
  type Job,
  type JobWaiter,
  type ReadonlyJob,
} from './job.js';
import type { JobKind, JobStatus } from '../contract/sim-events.js';
import { statusBody, type StatusBody } from './job-body.js';
import { JobQueue } from './job-queue.js';
import { Limits } from './limits.js';
import type { RandomSource } from '../lib/random.js';
import { ScaleLoop } from './scaler.js';
import { TokenModel, type TokenRun } from './token-model.js';
import type { Scheduler } from '../lib/scheduler.js';
import { DEFAULT_FAILURE, Workload, type SimDirectives } from './workload.js';
import { WebhookScheduler } from './webhooks.js';
import type { WebhookSender } from '../contract/webhooks.js';
import { freeRun, heldBy, runOf, type Run, type Worker } from './worker.js';
import { WorkerPool } from './worker-pool.js';
import { healthBody } from './endpoint-health.js';
import { LlmEngine, type EngineHost } from './llm-engine.js';
import { engineOn } from '../contract/llm-config.js';
import { EngineStats } from './engine-stats.js';
import { fitToContext } from './context-fit.js';
import { Balancer, BALANCER_WAIT_MAX_MS, type Affinity } from './balancer.js';
import type { BalancerCause } from '../contract/sim-events.js';

/** The error a load-balancing endpoint's request ended by its balancer carries (its answer: api/routes/balancer.ts). */
export const BALANCER_ERRORS: Readonly<Record<BalancerCause, string>> = {
  'no-workers': 'no workers available',
  timeout: 'request timed out',
  dropped: 'worker dropped the request',
  'worker-timeout': 'worker_timeout',
  'worker-gone': 'affinity_worker_gone',
};

export interface Submission {
  kind: JobKind;
  id: string;
  input: unknown;
  webhook?: string | undefined;
  s3Config?: unknown;
  lowPriority?: boolean | undefined;
  executionTimeoutMs?: number | undefined;
  ttlMs?: number | undefined;
  directives?: SimDirectives | undefined;
  /** Cap on the job's tokens (`max_tokens`), on an `llm:` endpoint. */
  maxTokens?: number | undefined;
  /** `ignore_eos`: the answer is `max_tokens` long exactly, on an `llm:` endpoint. */
  ignoreEos?: boolean | undefined;
  /** Prompt tokens the job's request carries (contract/prompt-tokens.ts), prefilled by an `llm.engine` worker. */
  promptTokens?: number | undefined;
  /** A load-balancing endpoint's request: the worker its `X-Runpod-Worker-Id` names, and how strictly (balancer.ts). */
  affinity?: Affinity | undefined;
  /** The prompt's KV cache block ids (contract/prompt-blocks.ts), for an `llm.engine` worker with `prefixCaching`. */
  promptBlocks?: readonly number[] | undefined;
}

export { DEFAULT_TTL_MS };

export class Endpoint {
  readonly jobs: JobTable;
  readonly queue = new JobQueue();
  /** What its workers' batching engines hold (an `llm.engine` endpoint; zeros otherwise). */
  readonly engines = new EngineStats();
  readonly pool: WorkerPool;
  readonly limits: Limits;
  readonly webhooks: WebhookScheduler;
  private readonly workload: Workload;
  /** The token model of an `llm:` endpoint. */
  private readonly tokens: TokenModel | undefined;
  private readonly retention: Retention;
  private readonly streams: JobStreams;
  private readonly scaler: ScaleLoop;
  /** A load-balancing endpoint's balancer (`type: load-balancer`); undefined on a queue endpoint. */
  readonly balancer: Balancer | undefined;
  private readonly counters = { completed: 0, failed: 0, retried: 0 };
  /** Runs started so far (a run slot's `startOrder`). */
  private starts = 0;

  constructor(
    readonly cfg: EndpointConfig,
    private readonly sched: Scheduler,
    rng: RandomSource,
    private readonly bus: EventBus,
    sender: () => WebhookSender,
    ids: JobIds,
  ) {
    this.jobs = new JobTable(ids, cfg.id, sched, (j) => this.retention.ownedAgain(j));
    const r = (name: string) => rng.stream(`${cfg.id}/${name}`);
    this.workload = new Workload(cfg, sampler(cfg.jobDurationMs, r('service')), r('failures'));
    this.tokens = cfg.llm ? new TokenModel(cfg.llm, cfg.id, rng) : undefined;
    this.limits = new Limits(cfg.limits);
    this.webhooks = new WebhookScheduler(cfg.webhook, sched, bus, sender);
    this.retention = new Retention(
      sched,
      this.jobs,
      cfg.retention,
      (j, why) => this.expire(j, why),
      (seq) => this.expireCompacted(seq),
    );
    this.streams = new JobStreams(
      cfg,
      sched,
      this.workload,
      this.jobs,
      bus,
      (j) => this.notify(j, 'chunk'),
      (j) => this.tokensDone(j),
    );
    const flash = cfg.flashBoot ? sampler(cfg.flashBoot.startMs, r('flashboot')) : undefined;
    this.pool = new WorkerPool(cfg.id, cfg, sched, sampler(cfg.coldStartMs, r('coldstart')), flash, {
      onReady: (w) => {
        // A load-balancing endpoint's worker serves the requests pinned to it first.
        if (this.balancer !== undefined && this.balancer.anyPinned) this.feedPinned(w);
        this.dispatch();
        // REQUEST_COUNT on a queue endpoint has no idle timeout: a worker that boots into no work
        // above the target stops (at the end of the ms: a job arriving in it still takes the worker).
        if (this.scaler.surplus(w)) this.scaler.atEndOfMs();
      },
      // A start that ran past initTimeoutMs freed no capacity but may leave a job waiting: look again.
      onUnhealthy: () => this.scaler.run(),
      onRunEnd: this.onRunEnd,
      engineFor: (gpu) => {
        const e = cfg.llm?.engine;
        return e ? new LlmEngine(engineOn(e, cfg.gpus?.[gpu]), sched, this.engineHost, this.engines) : undefined;
      },
      onState: (w, from, to) => {
        if (to === 'stopped' && this.balancer !== undefined) this.balancer.stopped(w);
        if (bus.workersWatched) bus.emit({ type: 'worker.state', atMs: sched.nowMs, endpointId: cfg.id, workerId: w.id, from, to });
      },
      keep: () => this.scaler.keep(),
    });
    this.scaler = new ScaleLoop(cfg, sched, this.queue, this.pool);
    this.balancer =
      cfg.type === 'load-balancer'
        ? new Balancer(sched, this.pool, this.queue, { start: (w, j) => this.start(w, j), fail: (j, cause) => this.fail(j, cause) })
        : undefined;
    this.scaler.run();
  }

  get id(): string {
    return this.cfg.id;
  }

  /** The execution timeout in force for `j` (its policy's, else the endpoint's). */
  executionTimeoutOf(j: Job): number {
    return j.x?.executionTimeoutMs ?? this.cfg.executionTimeoutMs;
  }

  /**
   * How long a request held for `j`'s end may wait at most: its execution timeout, and on a
   * load-balancing endpoint the longest wait for a worker before it (every such request ends by itself).
   */
  answerWithinMs(j: Job): number {
    return this.executionTimeoutOf(j) + 1 + (this.balancer !== undefined ? BALANCER_WAIT_MAX_MS : 0);
  }

  /**
   * On a load-balancing endpoint, why a request with affinity `a` is refused on arrival (its strict
   * worker is gone for good: counted as the balancer's), or undefined when it may be routed.
   */
  refuseAffinity(a: Affinity | undefined): BalancerCause | undefined {
    const cause = this.balancer?.refuses(a);
    if (cause !== undefined) this.balancerFailed(cause, undefined);
    return cause;
  }

  /** Why the balancer ended `j` (a load-balancing endpoint's request that got no worker's answer), or undefined. */
  balancerCause(j: ReadonlyJob): BalancerCause | undefined {
    return j.x?.lb?.cause;
  }

  /** Takes a concurrency slot and a rate token for `op`, or names the limit hit (and reports it). */
  admit(op: Operation): LimitCause | undefined {
    const c = this.pool.counts;
    const cause = this.limits.admit(op, this.sched.nowMs, c.idle + c.running);
    if (cause) this.limited(op, cause);
    return cause;
  }

  /** Reports a request refused by a limit. */
  limited(op: Operation, cause: LimitCause): void {
    if (this.bus.active) this.bus.emit({ type: 'request.limited', atMs: this.sched.nowMs, endpointId: this.id, operation: op, cause });
  }

  /** Accepts a job into the queue (limits already passed). */
  submit(s: Submission): Job {
    const now = this.sched.nowMs;
    const j = newJob(this.jobs.seqOf(s.id), s.kind, s.input, s.s3Config, now);
    j.id = s.id;
    if (s.ttlMs !== undefined && s.ttlMs !== DEFAULT_TTL_MS) {
      extras(j).ttlMs = s.ttlMs;
      j.expiresAtMs = now + s.ttlMs;
    }
    if (s.executionTimeoutMs !== undefined) extras(j).executionTimeoutMs = s.executionTimeoutMs;
    if (s.lowPriority) extras(j).lowPriority = true;
    if (s.webhook !== undefined) extras(j).webhook = s.webhook;
    if (s.directives !== undefined) extras(j).directives = s.directives;
    if (s.maxTokens !== undefined) extras(j).maxTokens = s.maxTokens;
    if (s.ignoreEos) extras(j).ignoreEos = true;
    if (s.promptTokens !== undefined && this.cfg.llm?.engine) extras(j).promptTokens = s.promptTokens;
    if (s.promptBlocks !== undefined && this.cfg.llm?.engine?.prefixCaching) extras(j).promptBlocks = s.promptBlocks;
    // In the table first: the ttl sweep walks the table, and a job it cannot see gets no deadline.
    this.jobs.add(j);
    // A load-balancing endpoint's request has no ttl: it ends within minutes, and goes when it ends.
    if (this.balancer === undefined) this.retention.watchTtl(j);
    if (this.bus.active) this.bus.emit({ type: 'job.accepted', atMs: now, endpointId: this.id, jobId: s.id, kind: j.kind, lowPriority: isLowPriority(j) });
    if (this.balancer !== undefined) return this.balance(j, s.affinity);
    this.queue.push(j);
    this.dispatch();
    return j;
  }

  /** The body `/status` answers; `brief`: without `workerId` and `output` (PreparedRoute.brief). */
  status(j: ReadonlyJob, brief = false): StatusBody {
    if (brief) return statusBody(j, this.jobs.idOf(j), undefined, this.sched.nowMs, undefined, true);
    return statusBody(j, this.jobs.idOf(j), this.jobs.workerIdOf(j), this.sched.nowMs, this.streams.progress(j));
  }

  /** Cancels a queued or running job; a terminal job is left as it is. */
  cancel(job: ReadonlyJob): void {
    // Only an ended job is ever compacted: `own` of a queued or running one is its stored object.
    if (job.status === 'IN_QUEUE') {
      const j = this.jobs.own(job);
      this.queue.remove(j);
      this.finish(j, 'CANCELLED', undefined, undefined);
    } else if (job.status === 'IN_PROGRESS') {
      this.finish(this.jobs.own(job), 'CANCELLED', undefined, undefined);
    }
  }

  /** Re-queues a FAILED or TIMED_OUT job: same id and input, output removed. False if not allowed. */
  retry(job: ReadonlyJob): boolean {
    if (job.status !== 'FAILED' && job.status !== 'TIMED_OUT') return false;
    // A FAILED or TIMED_OUT job is never compacted: `own` is its stored object.
    const j = this.jobs.own(job);
    j.status = 'IN_QUEUE';
    j.output = j.error = j.worker = j.executionTimeMs = j.startedAtMs = undefined;
    if (j.x) j.x.chunksDone = 0;
    if (j.x) j.x.crashed = false;
    j.enqueuedAtMs = this.sched.nowMs;
    this.counters.retried++;
    // Back under the ttl deadline alone (counted from submission).
    j.expiresAtMs = j.submittedAtMs + ttlOf(j);
    this.retention.watchTtl(j);
    if (this.bus.active) this.bus.emit({ type: 'job.requeued', atMs: this.sched.nowMs, endpointId: this.id, jobId: this.jobs.idOf(j), reason: 'retry' });
    this.queue.push(j);
    this.dispatch();
    return true;
  }

  /** Removes every queued job; running jobs continue. Returns how many were removed. */
  purge(): number {
    let n = 0;
    for (let j = this.queue.shift(); j; j = this.queue.shift()) {
      n++;
      if (this.bus.active) this.bus.emit({ type: 'job.purged', atMs: this.sched.nowMs, endpointId: this.id, jobId: this.jobs.idOf(j) });
      this.remove(j);
    }
    // The queue emptied: the scaler looks (REQUEST_COUNT's target fell: workers waiting for a place
    // above it are withdrawn at the end of the ms).
    this.scaler.run();
    return n;
  }

  /** Jobs retained now (`/requests` total): results already due are removed first. */
  retainedCount(): number {
    this.retention.flush();
    return this.jobs.size;
  }

  /** `/status?ttl=`: the result is dropped `ms` from now (terminal) or from completion; it never extends retention. */
  setResultTtl(j: ReadonlyJob, ms: number): void {
    this.retention.shorten(this.jobs.own(j), ms);
  }

  /** Partial outputs produced since the last call (`/stream`), oldest first. */
  drainStream(j: ReadonlyJob): unknown[] {
    return this.streams.drain(j);
  }

  /** True when `/stream` has nothing new and the job can still produce something. */
  streamIdle(j: ReadonlyJob): boolean {
    return this.streams.idle(j);
  }

  /**
   * On an `llm:` endpoint, the tokens of the job's current (or last) run: how many, and whether
   * its `max_tokens` cut them; undefined before it started, on a run that fails, or without `llm:`.
   */
  tokensOf(j: ReadonlyJob): { readonly count: number; readonly capped: boolean } | undefined {
    return j.x?.tokens;
  }

  /**
   * On an `llm.engine` endpoint, the prompt as its worker saw it: tokens prefilled (the 4-characters
   * rule) and, with `prefixCaching`, those its worker's cache held when the current run joined the
   * batch (undefined before it joined; without prefix caching). Undefined without an engine.
   */
  promptOf(j: ReadonlyJob): { tokens: number; cachedTokens: number | undefined } | undefined {
    if (!this.cfg.llm?.engine) return undefined;
    return { tokens: j.x?.promptTokens ?? 0, cachedTokens: j.x?.cachedTokens };
  }

  /** Tokens (or chunks) a job has produced so far in its current run (once it ended: all of them). */
  tokensDone(j: ReadonlyJob): number {
    // A run that will fail has no token run (startInEngine): the engine times its tokens unseen.
    if (j.status === 'IN_PROGRESS' && this.cfg.llm?.engine) return j.x?.tokens === undefined ? 0 : (j.worker as Worker).engine!.produced(this.jobs.own(j));
    return chunksOf(j);
  }

  /** With an engine, an ended run's token times (ms after `startMs`, exact), once written; else undefined. */
  tokenTimes(j: ReadonlyJob): { readonly startMs: number; readonly atMs: readonly number[] } | undefined {
    const t = j.x?.tokens;
    if (!this.cfg.llm?.engine || t === undefined || t.atMs.length === 0 || j.startedAtMs === undefined) return undefined;
    return { startMs: j.startedAtMs, atMs: t.atMs };
  }

  /**
   * With an engine, the exact virtual ms (fractional) at which token `k` (0-based) of `j`'s current
   * run was produced; undefined otherwise (an ended run's times: `tokenTimes`; the token model's
   * tokens land on whole ms).
   */
  tokenAtMs(j: ReadonlyJob, k: number): number | undefined {
    if (!this.cfg.llm?.engine || j.status !== 'IN_PROGRESS') return undefined;
    return (j.worker as Worker).engine!.tokenAtMs(this.jobs.own(j), k);
  }

  health(): HealthBody {
    return healthBody({ counters: this.counters, queue: this.queue, pool: this.pool, gpus: this.cfg.gpus, balancer: this.balancer });
  }

  /** Holds `w` until the job changes. */
  wait(j: Job, w: JobWaiter): void {
    (extras(j).waiters ??= []).push(w);
    this.watchTokens(j);
  }

  /** An engine's job tells each new token while a waiter wants them (not every token is an event otherwise). */
  watchTokens(j: Job): void {
    if (j.status !== 'IN_PROGRESS' || !this.cfg.llm?.engine || !wantsChunks(j)) return;
    (j.worker as Worker).engine!.watch(j);
  }

  unwait(j: Job, w: JobWaiter): void {
    const x = j.x;
    if (x?.waiters) x.waiters = x.waiters.filter((v) => v !== w);
  }

  // ---------------------------------------------------------------- internals

  /**
   * Queued jobs go to idle workers first (the newest idle), then to running workers with room
   * (workerConcurrency > 1: the one with the most room): every worker with room asks for work.
   */
  private dispatch(): void {
    const pool = this.pool;
    while (this.queue.length > 0 && (pool.counts.idle > 0 || pool.room > 0)) {
      const w = pool.counts.idle > 0 ? pool.takeIdle() : pool.withRoom();
      if (w === undefined) break;
      this.start(w, this.queue.shift()!);
    }
    this.scaler.run();
  }

  /**
   * A load-balancing endpoint's new request: affinity first (balancer.ts), else the shared wait,
   * routed at once when a worker has room; still waiting, it gets 2 min.
   */
  private balance(j: Job, a: Affinity | undefined): Job {
    const b = this.balancer!;
    if (b.route(j, a)) {
      this.scaler.run();
      return j;
    }
    this.queue.push(j);
    this.dispatch();
    if (j.status === 'IN_QUEUE') b.waitForAny(j);
    return j;
  }

  /** A worker that just became ready takes the requests pinned to it, while it has room. */
  private feedPinned(w: Worker): void {
    const b = this.balancer!;
    while (this.pool.hasRoom(w)) {
      const j = b.nextFor(w);
      if (j === undefined) return;
      this.pool.claim(w);
      this.start(w, j);
    }
  }

  /** The balancer ends `j` (waiting, pinned or running) with `cause`; the answer shows it (api/routes/balancer.ts). */
  private fail(j: Job, cause: BalancerCause): void {
    this.balancer!.ended(j, cause);
    this.balancerFailed(cause, this.jobs.idOf(j));
    if (cause === 'timeout') this.finish(j, 'TIMED_OUT', undefined, `${BALANCER_ERRORS.timeout} after ${this.executionTimeoutOf(j)} ms`);
    else this.finish(j, 'FAILED', undefined, BALANCER_ERRORS[cause]);
  }

  /** Counts a request the balancer ended (`jobId` undefined: refused on arrival, never a job), and tells the bus. */
  private balancerFailed(cause: BalancerCause, jobId: string | undefined): void {
    this.balancer!.failed[cause]++;
    if (this.bus.active) this.bus.emit({ type: 'balancer.failed', atMs: this.sched.nowMs, endpointId: this.id, jobId, cause });
  }

  /**
   * Can an ended job become columns (job-table.ts)? Completed or cancelled, and nothing of its
   * extras still shows: no held request, no stream position, no crash count (the body's
   * `retries`), a single chunk. Its webhook was sent, its policy and directives have done their work.
   */
  private compactable(j: Job): boolean {
    if (j.status !== 'COMPLETED' && j.status !== 'CANCELLED') return false;
    const x = j.x;
    if (x !== undefined && (x.waiters !== undefined || x.streamBuffer !== undefined || x.retries > 0)) return false;
    // Tokens stay readable from `/stream` (and their count from the job) until the result goes; an
    // OpenAI completion's were answered (nothing streams it again), so its result alone stays.
    if (this.tokens !== undefined) return j.kind === 'openai';
    return this.streams.chunkCount(j) <= 1;
  }

  private start(w: Worker, j: Job): void {
    const now = this.sched.nowMs;
    this.pool.took(w);
    j.worker = w;
    j.status = 'IN_PROGRESS';
    j.startedAtMs = now;
    if (this.bus.active)
      this.bus.emit({
        type: 'job.started',
        atMs: now,
        endpointId: this.id,
        jobId: this.jobs.idOf(j),
        workerId: w.id,
        delayTimeMs: now - j.enqueuedAtMs,
        coldStartMs: coldStartOf(w, j, now),
      });
    w.bootFromMs = -1;
    const x = j.x;
    if (x !== undefined && x.lb !== undefined) this.balancer!.started(j);
    const timeoutMs = x?.executionTimeoutMs ?? this.cfg.executionTimeoutMs;
    // A load-balancing endpoint's request other than a completion (`lb`: /ping, a custom route) is
    // a plain run, timed as the built-in worker's job, on any worker.
    if (w.engine !== undefined && j.kind !== 'lb') return this.startInEngine(w.engine, j, timeoutMs);
    const r = freeRun(w);
    r.job = j;
    r.startOrder = this.starts++;
    const tokens = this.tokens === undefined || j.kind === 'lb' ? undefined : this.tokens.plan(x?.maxTokens, x?.ignoreEos);
    const plan = this.workload.plan(x?.directives, x !== undefined && x.crashed, tokens?.atMs[tokens.count - 1]);
    let inMs: number;
    if (plan.crashAfterMs !== undefined && plan.crashAfterMs < timeoutMs) {
      r.runEnd = 'crash';
      inMs = plan.crashAfterMs;
    } else if (plan.durationMs > timeoutMs) {
      r.runEnd = 'timeout';
      inMs = timeoutMs;
    } else {
      r.runEnd = 'complete';
      inMs = plan.durationMs;
      // The planned failure waits in `error` (not shown while running: job-body.ts).
      j.error = plan.failed ? (plan.error ?? DEFAULT_FAILURE) : undefined;
    }
    // The run slot (the worker itself for the first) is its own timer, re-armed for each run (worker.ts).
    this.sched.again(r, now + inMs);
    if (tokens === undefined) return this.streams.started(j, plan.durationMs, plan.chunks);
    // A run that will fail produces no tokens.
    extras(j).tokens = plan.failed ? undefined : tokens;
    if (!plan.failed) this.streams.startedTokens(j, tokens);
  }

  /** Removes a compacted result (a lane's deadline came). */
  private expireCompacted(seq: number): void {
    if (this.bus.active) {
      const c = this.jobs.compactedAt(seq);
      if (c)
        this.bus.emit({ type: 'job.expired', atMs: this.sched.nowMs, endpointId: this.id, jobId: this.jobs.idOf(c), reason: 'retention', status: c.status });
    }
    this.jobs.clear(seq);
  }

  /**
   * A job joins its worker's batching engine: its token count is drawn now, its times come from
   * the engine's iterations. A planned failure runs its tokens unseen and then ends FAILED; a crash
   * directive kills the worker once half its tokens are out.
   */
  private startInEngine(e: LlmEngine, j: Job, timeoutMs: number): void {
    const x = j.x;
    const fit = fitToContext(this.tokens!.count(x?.maxTokens, x?.ignoreEos), x?.promptTokens ?? 0, e.kvCacheTokens);
    const run = fit.run;
    const plan = this.workload.plan(x?.directives, x !== undefined && x.crashed, 0);
    const failed = plan.failed || fit.error !== undefined;
    j.error = fit.error ?? (plan.failed ? (plan.error ?? DEFAULT_FAILURE) : undefined);
    extras(j).tokens = failed ? undefined : run;
    const crashAfter = plan.crashAfterMs !== undefined && fit.error === undefined ? Math.max(1, Math.floor(run.count / 2)) : 0;
    // A refused prompt (fit.error) is prefilled as one token: none of its blocks.
    e.add(j, run.count, fit.promptTokens, this.sched.nowMs + timeoutMs, crashAfter, fit.error === undefined ? x?.promptBlocks : undefined);
    // A stream that began waiting while the job was queued (or before a crash re-queued it) follows
    // this run's tokens as they come, as one whose job was running when it came does (`wait`).
    this.watchTokens(j);
  }

  /** What an engine tells its endpoint (one object for all the endpoint's engines: each call names its job). */
  private readonly engineHost: EngineHost = {
    runEnded: (j, how) => this.runEnded(j, how),
    tokensLanded: (j) => {
      this.notify(j, 'chunk');
      return wantsChunks(j);
    },
  };

  /** The run's planned end came (worker.ts `runEnd`). */
  private readonly onRunEnd = (r: Run): void => this.runEnded(r.job!, r.runEnd);

  private runEnded(j: Job, how: Run['runEnd']): void {
    // A run ending at the very instant of the job's ttl deadline loses to it, whichever of the two
    // timers the scheduler runs first (the default ttl's sweep may be armed after the run started).
    if (j.expiresAtMs <= this.sched.nowMs) return this.expire(j, 'ttl');
    if (how === 'complete') return this.complete(j);
    if (how === 'crash') return this.crash(j);
    if (this.balancer !== undefined) return this.fail(j, 'timeout');
    this.finish(j, 'TIMED_OUT', undefined, `execution timeout of ${this.executionTimeoutOf(j)} ms exceeded`);
  }

  private complete(j: Job): void {
    const error = j.error;
    if (error !== undefined) return this.finish(j, 'FAILED', undefined, error);
    const n = this.streams.chunkCount(j);
    // The last chunk (or token) lands with completion.
    if (n > 1 || this.tokens !== undefined) extras(j).chunksDone = n;
    this.finish(j, 'COMPLETED', this.workload.output(j.input, j.x?.directives), undefined);
  }

  /**
   * The worker dies mid-job: every job it holds goes back to the front of the queue (the crashing
   * one first, the others behind it in the order they started); the worker restarts.
   */
  private crash(j: Job): void {
    const w = j.worker as Worker;
    // A load-balancing endpoint's engine worker may also hold plain runs (`lb` requests: start).
    const others = w.engine !== undefined ? w.engine.takeAll(j).concat(heldBy(w, j)) : heldBy(w, j);
    // Every slot emptied here, once (`others` read them first); the crashing run's timer already fired.
    for (const r of w.runs ?? []) {
      if (r.job !== j) this.sched.cancel(r);
      r.job = undefined;
    }
    if (this.balancer !== undefined) return this.drop(w, j, others);
    for (let i = others.length - 1; i >= 0; i--) this.requeue(others[i]!, w);
    // Queue first: a restart with no cold start is ready at once and takes the queue's head, which
    // must be this job (it keeps its turn), not the one behind it.
    this.requeue(j, w);
    this.pool.crash(w);
    this.dispatch();
  }

  /**
   * A load-balancing endpoint's worker crashed: no retries, so the requests it held fail (`dropped`),
   * the crashing one first, the others in the order they started; the worker restarts.
   */
  private drop(w: Worker, j: Job, others: Job[]): void {
    const lost = [j, ...others];
    for (const k of lost) {
      this.pool.freed(w);
      k.worker = w.n;
      // Off its worker already: `finish` has no run to stop.
      k.status = 'FAILED';
    }
    this.pool.crash(w);
    for (const k of lost) this.fail(k, 'dropped');
  }

  /** A job of a crashed worker back at the front of the queue (the crash directive does not fire again). */
  private requeue(j: Job, w: Worker): void {
    this.pool.freed(w);
    j.worker = undefined;
    const x = extras(j);
    x.crashed = true;
    x.retries++;
    this.counters.retried++;
    j.status = 'IN_QUEUE';
    // Back in the queue now: delayTime of the re-run counts from here (job.ts `enqueuedAtMs`).
    j.enqueuedAtMs = this.sched.nowMs;
    j.startedAtMs = undefined;
    // A planned failure waits in `error` while its run goes on (start): queued again, it has none
    // (the re-run plans its own). Only a job held beside the crashing one can have one.
    j.error = undefined;
    x.chunksDone = 0;
    x.streamBuffer = undefined;
    if (this.bus.active) this.bus.emit({ type: 'job.requeued', atMs: this.sched.nowMs, endpointId: this.id, jobId: this.jobs.idOf(j), reason: 'crash' });
    this.queue.push(j, true);
  }

  private finish(j: Job, status: JobStatus, output: unknown, error: string | undefined): void {
    const now = this.sched.nowMs;
    const w = this.stopRun(j);
    j.status = status;
    if (j.startedAtMs !== undefined) j.executionTimeMs = now - j.startedAtMs;
    j.output = output;
    j.error = error;
    if (status === 'COMPLETED') this.counters.completed++;
    else if (status === 'FAILED' || status === 'TIMED_OUT') this.counters.failed++;
    if (this.bus.active)
      this.bus.emit({
        type: 'job.finished',
        atMs: now,
        endpointId: this.id,
        jobId: this.jobs.idOf(j),
        status,
        delayTimeMs: delayOf(j),
        executionTimeMs: j.executionTimeMs,
      });
    // A load-balancing endpoint's request is gone once answered: nothing asks for it again.
    if (this.balancer !== undefined) return this.balancerEnded(j, w);
    const inLane = this.retention.ended(j);
    const webhook = j.x?.webhook;
    if (webhook) {
      const id = this.jobs.idOf(j);
      this.webhooks.deliver(this.id, id, webhook, { ...statusBody(j, id, this.jobs.workerIdOf(j), now), input: j.input, webhook });
    }
    this.notify(j, 'terminal');
    const t = j.x?.tokens;
    // Only the count and the cut are read once the run ended (and its held streams had the times).
    if (t !== undefined && t.atMs.length > 0) j.x!.tokens = ended(t);
    // A retention of 0 ms (a result nobody may read): gone now, as a lane would only remove it at
    // the next scheduler step (a cancel answers between steps).
    if (inLane && j.expiresAtMs <= now) {
      this.expire(j, 'retention');
      this.reuse(w);
      this.dispatch();
      return;
    }
    // A plain result whose lane removes it: its object goes, the result stays (job-table.ts).
    // Nobody listening for its removal, it goes in a late lane (retention.ts `unseen`).
    const compact = inLane && this.compactable(j);
    if (inLane) this.retention.expireAt(j, compact && !this.bus.active);
    if (compact) this.jobs.compact(j);
    this.reuse(w);
    this.dispatch();
  }

  /** A load-balancing endpoint's request ended: its answer goes, then the request (no retention, no webhook). */
  private balancerEnded(j: Job, w: Worker | undefined): void {
    this.notify(j, 'terminal');
    j.expiresAtMs = GONE;
    this.jobs.delete(j);
    this.reuse(w);
    this.dispatch();
  }

  /**
   * Detaches a running job from its worker (completion, cancel, timeout, hard delete) and returns
   * the worker; the job keeps its number (`workerId` of its body) once it ended.
   */
  private stopRun(j: Job): Worker | undefined {
    if (j.status !== 'IN_PROGRESS') return undefined;
    const w = j.worker as Worker;
    if (w.engine !== undefined && j.kind !== 'lb') w.engine.remove(j);
    else {
      const r = runOf(w, j);
      this.sched.cancel(r);
      r.job = undefined;
    }
    j.worker = w.n;
    return w;
  }

  /**
   * A worker whose job ended takes the next queued job at once, or goes idle (or stops). The job's
   * place frees only here, not when its run stopped: what the end set off meanwhile (a held answer,
   * and in process the client's next request at once) finds the worker as full as over HTTP.
   */
  private reuse(w: Worker | undefined): void {
    if (!w) return;
    this.pool.freed(w);
    // A load-balancing endpoint's worker serves the requests pinned to it before the shared wait.
    const next = (this.balancer !== undefined ? this.balancer.nextFor(w) : undefined) ?? this.queue.shift();
    if (next) {
      this.start(w, next);
      return;
    }
    if (w.held > 0) return;
    this.pool.release(w);
    // REQUEST_COUNT stops it at the end of the ms (scaler.ts `atEndOfMs`), unless a job arriving
    // in the same ms takes it first.
    if (this.scaler.surplus(w)) this.scaler.atEndOfMs();
  }

  /** Hard delete: ttl (even while running) or the end of retention. */
  private expire(j: Job, reason: ExpiryReason): void {
    if (isGone(j)) return;
    if (this.bus.active)
      this.bus.emit({ type: 'job.expired', atMs: this.sched.nowMs, endpointId: this.id, jobId: this.jobs.idOf(j), reason, status: j.status });
    const live = !isTerminal(j.status);
    this.remove(j);
    // Removing an ended job's result frees nothing the scaler cares about.
    if (live) this.dispatch();
  }

  private remove(j: Job): void {
    this.queue.remove(j);
    const w = this.stopRun(j);
    this.sched.cancel(j.x?.ttlTimer);
    j.expiresAtMs = GONE;
    this.jobs.delete(j);
    this.notify(j, 'gone');
    this.reuse(w);
  }

  private notify(j: Job, change: 'chunk' | 'terminal' | 'gone'): void {
    const x = j.x;
    const ws = x?.waiters;
    if (!x || !ws) return;
    x.waiters = undefined;
    const keep = ws.filter((w) => !w.update(change));
    if (keep.length) x.waiters = x.waiters ? keep.concat(x.waiters) : keep;
  }
}

/** Does a waiter of `j` want each chunk as it lands (job.ts `JobWaiter.wantsChunks`)? */
function wantsChunks(j: Job): boolean {
  return j.x?.waiters?.some((w) => w.wantsChunks) === true;
}

const NO_TIMES: readonly number[] = Object.freeze([]);

/** A run's tokens without their times. */
function ended(t: TokenRun): TokenRun {
  return { count: t.count, capped: t.capped, atMs: NO_TIMES };
}

/**
 * How long `j`, started now by `w`, waited for `w` to start: the overlap of its queue wait
 * [enqueued, now] with `w`'s start [bootFrom, ready]. Only the first job after a start has one;
 * a worker ready before the job came gives 0 (sim-events.ts `coldStartMs`).
 */
function coldStartOf(w: Worker, j: Job, nowMs: number): number {
  if (w.bootFromMs < 0) return 0;
  return Math.max(0, Math.min(nowMs, w.idleSinceMs) - Math.max(j.enqueuedAtMs, w.bootFromMs));
}
