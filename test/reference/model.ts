/**
 * A deliberately plain reference model of one endpoint: the job lifecycle, retention, ttl, cancel,
 * retry, purge, limits and `/health`, and the workers: workersMin to workersMax, cold starts (also
 * of a worker restarting after a crash), the scaler (QUEUE_DELAY and REQUEST_COUNT,
 * docs/api.md "Scaling") and the idle timeout. Every job stays in one array; on
 * every step every deadline of every job, held request and worker is looked at again. No sweeps,
 * lanes, wheels or compaction: speed is irrelevant here, being obviously right is the point. The
 * differential test holds the fast core to it.
 *
 * Events of one instant run in the order they were set (docs/endpoint.md: `(atMs, insertion)`): each
 * deadline, run end, cold start and scaler look-again carries the model's counter at the moment it
 * was set. The scaler's look-again is set when the scaler last looked. Idle timeouts and
 * REQUEST_COUNT's decisions come at the end of the millisecond, after every event of it; the
 * millisecond the clock was advanced to ends only at the next advance (requests still come in it).
 *
 * Cold starts are a constant or uniform draws from the stream the core draws from (the same seed
 * and stream name), one draw per start, in the order the model starts workers.
 *
 * The token model (`llm`): at each start a job draws its token count (capped by its max_tokens),
 * its time to first token and one gap per further token, each from its own stream as the core
 * does; the run lasts until its last token. Token k lands at start + ttft + the first k - 1 gaps
 * (an event set when token k - 1 landed; the last lands with completion); a run that will fail
 * lands none. OpenAI chat completions are held until the job ends; a streamed one on an llm
 * endpoint answers at its first token and gets every token at the instant it landed (the model
 * keeps those instants and answers when the stream ends: [DONE] after the finish reason, or the
 * job's status as the error code), without llm every token at the end.
 */
import { Alea } from '../../src/lib/random.js';
import { DEFAULT_TTL_MS, isEnded, jobId, refBody, type RefJob, type RefStatus } from './job.js';
import { RefLimits, type RefLimitsConfig, type RefOp } from './limits.js';

/** A constant, or uniform draws between two bounds (rounded, as the core rounds them). */
export type RefDist = number | { minMs: number; maxMs: number };

export interface RefConfig {
  workersMin: number;
  workersMax: number;
  /** ms from a worker's start (or crash restart) to ready: a constant, or uniform draws. */
  coldStart: number | { minMs: number; maxMs: number };
  idleTimeoutMs: number;
  scaler: { type: 'QUEUE_DELAY' | 'REQUEST_COUNT'; value: number };
  /** The core's seed: its cold-start draws come from `${seed}/ep/coldstart`. */
  seed: number;
  executionTimeoutMs: number;
  retention: { runMs: number; runsyncMs: number };
  limits: RefLimitsConfig;
  /** The token model; its draws come from `${seed}/ep/llm-tokens`, `llm-ttft` and `llm-gaps`. */
  llm?: { ttftMs: RefDist; interTokenMs: RefDist; outputTokens: RefDist };
}

/** An OpenAI chat completion request, as the model reads it. */
export interface RefChat {
  stream: boolean;
  max_tokens?: number;
  stream_options?: { include_usage: boolean };
  messages: unknown[];
}

export interface RefJobBody {
  input: Record<string, unknown>;
  policy?: { ttl?: number; executionTimeout?: number; lowPriority?: boolean };
}

/** A request as the model sees it; `job` is a submission index (-1: an id never issued). */
export type RefRequest =
  | { op: 'run' | 'runsync'; body: RefJobBody; wait?: number }
  | { op: 'status'; job: number; ttl?: number }
  | { op: 'status-sync'; job: number; wait?: number }
  | { op: 'cancel' | 'retry'; job: number }
  | { op: 'purge-queue' | 'health' }
  | { op: 'openai'; body: RefChat };

export interface RefAnswer {
  status: number;
  body: Record<string, unknown>;
}

/** An answer to a held request, given later: which request (its number), when, what. */
export interface RefLateAnswer extends RefAnswer {
  req: number;
  atMs: number;
}

interface Hold {
  req: number;
  op: RefOp;
  job: RefJob;
  untilMs: number;
  stamp: number;
  /** An OpenAI request: what it asked, and (streamed) the instant each token was sent. */
  chat?: { body: RefChat; sentAt: number[] };
}

interface Worker {
  n: number;
  state: 'initializing' | 'idle' | 'running';
  job: RefJob | undefined;
  /** While initializing: when it is ready, and the order stamp of that event. */
  boot: { atMs: number; stamp: number } | undefined;
  /** When it last became idle (the idle timeout counts from here). */
  idleSinceMs: number;
}

const DEFAULT_WAIT_MS = 90_000;
const err = (status: number, code: string, cause?: string): RefAnswer => ({ status, body: cause ? { code, cause } : { code } });
const NOT_FOUND = (): RefAnswer => err(404, 'API_ERR_JOB_NOT_FOUND');
/** The OpenAI routes' error codes (openai-errors). */
const OPENAI_CODES: Record<string, string> = {
  API_ERR_JOB_NOT_FOUND: 'job_not_found',
  API_ERR_RATE_LIMITED: 'rate_limit_exceeded',
  API_ERR_CONCURRENCY_LIMITED: 'rate_limit_exceeded',
  API_ERR_QUEUE_FULL: 'rate_limit_exceeded',
};
const openaiErr = (a: RefAnswer): RefAnswer => ({ status: a.status, body: { ...a.body, code: OPENAI_CODES[a.body.code as string] ?? a.body.code } });
/** Without llm: a completion has max_tokens words (default 16). */
const DEFAULT_COMPLETION_TOKENS = 16;

export class RefModel {
  nowMs = 0;
  readonly jobs: RefJob[] = [];
  /** Queued jobs; the next to run is the first normal one, else the first lowPriority one. */
  private queue: RefJob[] = [];
  /** Every worker, in start order. */
  private workers: Worker[] = [];
  /** Idle workers, oldest idle first; a job goes to the most recently idle (the last). */
  private idle: Worker[] = [];
  private nextWorker = 1;
  /** QUEUE_DELAY: when the scaler looks again (a queued job reaches the threshold). */
  private recheck: { atMs: number; stamp: number } | undefined;
  private looking = false;
  private readonly draws: Alea;
  private readonly tokenDraws: { count: Alea; ttft: Alea; gap: Alea };
  private holds: Hold[] = [];
  readonly late: RefLateAnswer[] = [];
  readonly limits: RefLimits;
  private readonly counters = { completed: 0, failed: 0, retried: 0 };
  private stamps = 0;

  constructor(private readonly cfg: RefConfig) {
    this.limits = new RefLimits(cfg.limits);
    this.draws = new Alea(`${cfg.seed}/ep/coldstart`);
    this.tokenDraws = { count: new Alea(`${cfg.seed}/ep/llm-tokens`), ttft: new Alea(`${cfg.seed}/ep/llm-ttft`), gap: new Alea(`${cfg.seed}/ep/llm-gaps`) };
    this.look();
  }

  /** Answers a request at the current time; undefined while it is held (see `late`). */
  request(r: RefRequest, req: number): RefAnswer | undefined {
    const cause = this.limits.admit(r.op, this.nowMs, this.count('idle') + this.count('running'));
    if (cause) return r.op === 'openai' ? openaiErr(err(429, LIMIT_CODES[cause], cause)) : err(429, LIMIT_CODES[cause], cause);
    const a = this.route(r, req);
    if (a) this.limits.release(r.op);
    return a;
  }

  private route(r: RefRequest, req: number): RefAnswer | undefined {
    if (r.op === 'openai') {
      if (this.limits.queueFull(this.queue.length, this.cfg.workersMax)) {
        this.limits.refund(r.op, this.nowMs);
        return openaiErr(err(429, 'API_ERR_QUEUE_FULL', 'queue'));
      }
      const j = this.submit('openai', { input: { openai_route: '/v1/chat/completions', openai_input: r.body } });
      this.holds.push({ req, op: 'openai', job: j, untilMs: this.nowMs + j.executionTimeoutMs + 1, stamp: this.stamps++, chat: { body: r.body, sentAt: [] } });
      return undefined;
    }
    if (r.op === 'run' || r.op === 'runsync') {
      if (this.limits.queueFull(this.queue.length, this.cfg.workersMax)) {
        this.limits.refund(r.op, this.nowMs);
        return err(429, 'API_ERR_QUEUE_FULL', 'queue');
      }
      const j = this.submit(r.op, r.body);
      if (r.op === 'run') return { status: 200, body: { id: jobId(j.index), status: 'IN_QUEUE' } };
      return this.holdUntilEnd(req, 'runsync', j, r.wait);
    }
    if (r.op === 'health') return { status: 200, body: this.health() };
    if (r.op === 'purge-queue') {
      let removed = 0;
      for (let j = this.next(); j; j = this.next()) {
        removed++;
        this.remove(j);
      }
      this.changed();
      return { status: 200, body: { removed, status: 'completed' } };
    }
    const q = r as Extract<RefRequest, { job: number }>;
    const j = this.find(q.job);
    if (!j) return NOT_FOUND();
    switch (q.op) {
      case 'status':
        if (q.ttl !== undefined) this.setResultTtl(j, q.ttl);
        return { status: 200, body: refBody(j, this.nowMs) };
      case 'status-sync':
        return this.holdUntilEnd(req, 'status-sync', j, q.wait);
      case 'cancel':
        if (j.status === 'IN_QUEUE') this.queue = this.queue.filter((q) => q !== j);
        if (!isEnded(j.status)) this.finish(j, 'CANCELLED', undefined, undefined);
        this.changed();
        return { status: 200, body: { id: jobId(j.index), status: j.status } };
      case 'retry':
        if (j.status !== 'FAILED' && j.status !== 'TIMED_OUT') return err(400, 'API_ERR_NOT_RETRYABLE');
        this.retry(j);
        return { status: 200, body: { id: jobId(j.index), status: 'IN_QUEUE' } };
    }
  }

  /**
   * Moves the clock `ms` forward, running every event due on the way in order; each millisecond
   * left behind ends with its end-of-ms decisions (`endOfMs`), the current one's included.
   */
  advance(ms: number): void {
    const until = this.nowMs + ms;
    let ended = false;
    for (;;) {
      const e = this.nextEvent();
      if (e && e.atMs <= this.nowMs) {
        e.fire();
        ended = false;
        continue;
      }
      if (this.nowMs >= until) break;
      if (!ended) {
        this.endOfMs();
        ended = true;
        continue;
      }
      const at = Math.min(e?.atMs ?? Infinity, this.nextIdleTimeout());
      if (at > until) break;
      this.nowMs = at;
      ended = false;
    }
    this.nowMs = until;
  }

  /** The job's status body as `/status` would answer it now, or undefined when it is unknown. */
  peek(index: number): Record<string, unknown> | undefined {
    const j = this.find(index);
    return j && refBody(j, this.nowMs);
  }

  /** The newest known job that ended FAILED or TIMED_OUT (a `/retry` target), if any. */
  newestFailed(): number | undefined {
    for (let k = this.jobs.length - 1; k >= 0; k--) {
      const j = this.find(k);
      if (j && (j.status === 'FAILED' || j.status === 'TIMED_OUT')) return k;
    }
    return undefined;
  }

  health(): Record<string, unknown> {
    const [idle, initializing, running] = [this.count('idle'), this.count('initializing'), this.count('running')];
    return {
      jobs: { ...this.counters, inProgress: running, inQueue: this.queue.length },
      workers: { idle, initializing, ready: idle + running, running, throttled: 0, unhealthy: 0 },
    };
  }

  private count(state: Worker['state']): number {
    return this.workers.filter((w) => w.state === state).length;
  }

  // ---------------------------------------------------------------- lifecycle

  /** A job is known until its deadline (a result due now is already gone for readers). */
  private find(index: number): RefJob | undefined {
    const j = this.jobs[index];
    return j && !j.gone && j.deadlineMs > this.nowMs ? j : undefined;
  }

  private submit(kind: 'run' | 'runsync' | 'openai', body: RefJobBody): RefJob {
    const sim = (body.input.sim ?? {}) as { durationMs?: number; fail?: boolean | string; crash?: boolean };
    const ttlMs = body.policy?.ttl ?? DEFAULT_TTL_MS;
    const j: RefJob = {
      index: this.jobs.length,
      kind,
      input: body.input,
      durationMs: sim.durationMs ?? 1000,
      fail: sim.fail,
      crash: sim.crash === true,
      ttlMs,
      executionTimeoutMs: body.policy?.executionTimeout ?? this.cfg.executionTimeoutMs,
      lowPriority: body.policy?.lowPriority === true,
      submittedAtMs: this.nowMs,
      status: 'IN_QUEUE',
      gone: false,
      deadlineMs: this.nowMs + ttlMs,
      deadlineStamp: this.stamps++,
      deadlineIsTtl: true,
      retentionOverrideMs: undefined,
      enqueuedAtMs: this.nowMs,
      startedAtMs: undefined,
      executionTimeMs: undefined,
      worker: undefined,
      run: undefined,
      output: undefined,
      error: undefined,
      retries: 0,
      crashed: false,
      maxTokens: this.cfg.llm ? maxTokensOf(kind, body.input) : undefined,
      tokens: undefined,
      tokensDone: 0,
      nextToken: undefined,
    };
    this.jobs.push(j);
    this.queue.push(j);
    this.changed();
    return j;
  }

  /** The next job to run: normal jobs first, each priority in queue order. Taken off the queue. */
  private next(): RefJob | undefined {
    const j = this.queue.find((q) => !q.lowPriority) ?? this.queue[0];
    if (j) this.queue = this.queue.filter((q) => q !== j);
    return j;
  }

  /** Idle workers take queued jobs, the most recently idle first. */
  private dispatch(): void {
    while (this.queue.length > 0 && this.idle.length > 0) this.start(this.idle.pop()!, this.next()!);
  }

  /** After any change: idle workers take jobs, then the scaler looks. */
  private changed(): void {
    this.dispatch();
    this.look();
  }

  /** The run's end is decided now: a crash halfway (once), the timeout, or the job's duration. */
  private start(w: Worker, j: RefJob): void {
    w.state = 'running';
    w.job = j;
    j.worker = w.n;
    j.status = 'IN_PROGRESS';
    j.startedAtMs = this.nowMs;
    j.tokensDone = 0;
    j.nextToken = undefined;
    if (this.cfg.llm) {
      const t = this.drawTokens(j.maxTokens);
      j.durationMs = t.atMs[t.count - 1]!;
      j.tokens = j.fail !== undefined && j.fail !== false ? undefined : t;
    }
    const half = Math.floor(j.durationMs / 2);
    const run =
      j.crash && !j.crashed && half < j.executionTimeoutMs
        ? { ms: half, outcome: 'crash' as const }
        : j.durationMs > j.executionTimeoutMs
          ? { ms: j.executionTimeoutMs, outcome: 'timeout' as const }
          : { ms: j.durationMs, outcome: 'complete' as const };
    j.run = { atMs: this.nowMs + run.ms, outcome: run.outcome, stamp: this.stamps++ };
    if (j.tokens && j.tokens.count > 1) j.nextToken = { atMs: this.nowMs + j.tokens.atMs[0]!, k: 1, stamp: this.stamps++ };
  }

  private draw(d: RefDist, a: Alea): number {
    return typeof d === 'number' ? d : Math.max(0, Math.round(d.minMs + a.next() * (d.maxMs - d.minMs)));
  }

  /** The count (at least 1, at most 4096, capped by max_tokens), then the time to the first token, then each gap. */
  private drawTokens(maxTokens: number | undefined): { count: number; capped: boolean; atMs: number[] } {
    const l = this.cfg.llm!;
    const drawn = Math.min(4096, Math.max(1, this.draw(l.outputTokens, this.tokenDraws.count)));
    const capped = maxTokens !== undefined && drawn > maxTokens;
    const count = capped ? maxTokens : drawn;
    const atMs = [this.draw(l.ttftMs, this.tokenDraws.ttft)];
    for (let k = 1; k < count; k++) atMs.push(atMs[k - 1]! + this.draw(l.interTokenMs, this.tokenDraws.gap));
    return { count, capped, atMs };
  }

  /** Token k landed: streamed requests of the job send what they have not sent yet; the next token's event is set. */
  private tokenLanded(j: RefJob, k: number): void {
    j.nextToken = undefined;
    j.tokensDone = k;
    this.sendTokens(j);
    if (k + 1 < j.tokens!.count) j.nextToken = { atMs: j.startedAtMs! + j.tokens!.atMs[k]!, k: k + 1, stamp: this.stamps++ };
  }

  /** Streamed OpenAI requests on an llm endpoint get the tokens landed beyond those they were sent. */
  private sendTokens(j: RefJob): void {
    if (!this.cfg.llm) return;
    for (const h of this.holds) {
      if (h.job !== j || !h.chat?.body.stream) continue;
      while (h.chat.sentAt.length < j.tokensDone) h.chat.sentAt.push(this.nowMs);
    }
  }

  private runEnded(j: RefJob): void {
    const outcome = j.run!.outcome;
    if (outcome === 'crash') return this.crash(j);
    if (outcome === 'timeout') return this.finish(j, 'TIMED_OUT', undefined, `execution timeout of ${j.executionTimeoutMs} ms exceeded`);
    if (j.fail !== undefined && j.fail !== false) return this.finish(j, 'FAILED', undefined, j.fail === true ? 'simulated failure' : j.fail);
    if (j.tokens) j.tokensDone = j.tokens.count;
    this.finish(j, 'COMPLETED', j.input, undefined);
  }

  /** The worker dies mid-job: the job goes back to the front of its priority, the worker restarts (a cold start). */
  private crash(j: RefJob): void {
    const w = this.workerOf(j)!;
    w.job = undefined;
    j.worker = j.startedAtMs = j.run = j.nextToken = undefined;
    j.tokensDone = 0;
    j.crashed = true;
    j.retries++;
    this.counters.retried++;
    j.status = 'IN_QUEUE';
    j.enqueuedAtMs = this.nowMs;
    this.queue.unshift(j);
    this.boot(w);
    this.changed();
  }

  private finish(j: RefJob, status: RefStatus, output: unknown, error: string | undefined): void {
    const w = this.stopRun(j);
    j.status = status;
    if (j.startedAtMs !== undefined) j.executionTimeMs = this.nowMs - j.startedAtMs;
    j.output = output;
    j.error = error;
    if (status === 'COMPLETED') this.counters.completed++;
    if (status === 'FAILED' || status === 'TIMED_OUT') this.counters.failed++;
    // `/status?ttl` only ever shortens retention.
    const keepMs = Math.min(j.retentionOverrideMs ?? Infinity, j.kind === 'runsync' ? this.cfg.retention.runsyncMs : this.cfg.retention.runMs);
    if (this.nowMs + keepMs < j.deadlineMs) this.setDeadline(j, this.nowMs + keepMs, false);
    j.nextToken = undefined;
    this.sendTokens(j);
    this.answerHolds(j, () => ({ status: 200, body: refBody(j, this.nowMs) }));
    this.reuse(w);
    this.changed();
  }

  private retry(j: RefJob): void {
    j.tokensDone = 0;
    j.status = 'IN_QUEUE';
    j.output = j.error = j.worker = j.executionTimeMs = j.startedAtMs = undefined;
    j.crashed = false;
    j.enqueuedAtMs = this.nowMs;
    this.counters.retried++;
    // Back under its ttl, counted from submission.
    if (!j.deadlineIsTtl) this.setDeadline(j, j.submittedAtMs + j.ttlMs, true);
    this.queue.push(j);
    this.changed();
  }

  /** `/status?ttl=`: drops the result `ms` from now (ended) or from its end; never later than before. */
  private setResultTtl(j: RefJob, ms: number): void {
    if (!isEnded(j.status)) {
      j.retentionOverrideMs = Math.min(ms, j.retentionOverrideMs ?? ms);
      return;
    }
    if (this.nowMs + ms < j.deadlineMs) this.setDeadline(j, this.nowMs + ms, false);
  }

  /** Hard delete (ttl, retention, purge): gone even if running; its worker takes the next job. */
  private remove(j: RefJob): void {
    this.queue = this.queue.filter((q) => q !== j);
    const w = this.stopRun(j);
    j.gone = true;
    this.answerHolds(j, NOT_FOUND);
    this.reuse(w);
  }

  private stopRun(j: RefJob): Worker | undefined {
    if (j.status !== 'IN_PROGRESS') return undefined;
    j.run = j.nextToken = undefined;
    return this.workerOf(j);
  }

  /** A worker whose job ended takes the next queued job, or goes idle. */
  private reuse(w: Worker | undefined): void {
    if (!w) return;
    w.job = undefined;
    const next = this.next();
    if (next) this.start(w, next);
    else this.makeIdle(w);
  }

  // ---------------------------------------------------------------- workers and the scaler

  private makeIdle(w: Worker): void {
    w.state = 'idle';
    w.idleSinceMs = this.nowMs;
    this.idle.push(w);
  }

  private startWorker(): void {
    const w: Worker = { n: this.nextWorker++, state: 'initializing', job: undefined, boot: undefined, idleSinceMs: 0 };
    this.workers.push(w);
    this.boot(w);
  }

  /** A (re)start: ready after its cold start; at once when that is 0 ms, taking a queued job. */
  private boot(w: Worker): void {
    w.state = 'initializing';
    const c = this.cfg.coldStart;
    const ms = typeof c === 'number' ? c : Math.max(0, Math.round(c.minMs + this.draws.next() * (c.maxMs - c.minMs)));
    if (ms > 0) {
      w.boot = { atMs: this.nowMs + ms, stamp: this.stamps++ };
      return;
    }
    this.makeIdle(w);
    this.dispatch();
  }

  private stopWorker(w: Worker): void {
    this.workers = this.workers.filter((x) => x !== w);
    this.idle = this.idle.filter((x) => x !== w);
  }

  /**
   * The scaler's look, after every change: start the workers wanted now, one at a time. Then
   * (QUEUE_DELAY) look again when the next queued normal job reaches the threshold.
   */
  private look(): void {
    if (this.looking) return;
    this.looking = true;
    const noneLive = this.workers.length === 0;
    while (this.wantedNow(noneLive) > 0) this.startWorker();
    this.looking = false;
    if (this.cfg.scaler.type !== 'QUEUE_DELAY') return;
    const t = this.thresholdMs();
    const later = this.queue.filter((j) => !j.lowPriority && j.enqueuedAtMs + t > this.nowMs).map((j) => j.enqueuedAtMs + t);
    if (later.length === 0) return;
    const at = Math.min(...later);
    if (!this.recheck || this.recheck.atMs > at) this.recheck = { atMs: at, stamp: this.stamps++ };
  }

  private thresholdMs(): number {
    return Math.round(this.cfg.scaler.value * 1000);
  }

  /**
   * Workers to start now: up to workersMin; one when a normal job waits and no worker is live;
   * QUEUE_DELAY: one per normal job that has waited the threshold, less those starting.
   * REQUEST_COUNT: when the look began with no worker live, up to the target (no worker can go
   * idle later in the ms to take a job); else the rest at the end of the ms (`endOfMs`). Never
   * past workersMax.
   */
  private wantedNow(noneLive: boolean): number {
    const total = this.workers.length;
    const room = this.cfg.workersMax - total;
    const normal = this.queue.filter((j) => !j.lowPriority);
    let base = Math.max(0, this.cfg.workersMin - total);
    if (base === 0 && normal.length > 0 && total === 0) base = 1;
    if (this.cfg.scaler.type === 'REQUEST_COUNT') return Math.min(room, noneLive ? Math.max(base, this.target() - total) : base);
    const overdue = normal.filter((j) => this.nowMs - j.enqueuedAtMs >= this.thresholdMs()).length;
    return Math.min(room, Math.max(base, overdue - this.count('initializing')));
  }

  /** REQUEST_COUNT: ceil((normal queued + running) / value), within workersMin and workersMax. */
  private target(): number {
    const normal = this.queue.filter((j) => !j.lowPriority).length;
    const t = Math.ceil((normal + this.count('running')) / this.cfg.scaler.value);
    return Math.min(this.cfg.workersMax, Math.max(this.cfg.workersMin, t));
  }

  /**
   * The end of the current ms. REQUEST_COUNT: idle workers above the target stop, the most
   * recently idle first, then workers start up to it. QUEUE_DELAY: idle workers idle for
   * idleTimeoutMs stop, the oldest idle first, while more than workersMin remain.
   */
  private endOfMs(): void {
    if (this.cfg.scaler.type === 'REQUEST_COUNT') {
      while (this.idle.length > 0 && this.workers.length > this.target()) this.stopWorker(this.idle[this.idle.length - 1]!);
      while (this.workers.length < this.target()) this.startWorker();
      return;
    }
    for (let w = this.idle[0]; w && w.idleSinceMs + this.cfg.idleTimeoutMs <= this.nowMs; w = this.idle[0]) {
      if (this.workers.length <= this.cfg.workersMin) return;
      this.stopWorker(w);
    }
  }

  /** QUEUE_DELAY: the next time an idle worker reaches its idle timeout, after now. */
  private nextIdleTimeout(): number {
    if (this.cfg.scaler.type !== 'QUEUE_DELAY') return Infinity;
    const at = this.idle.map((w) => w.idleSinceMs + this.cfg.idleTimeoutMs).filter((t) => t > this.nowMs);
    return Math.min(Infinity, ...at);
  }

  private ready(w: Worker): void {
    w.boot = undefined;
    this.makeIdle(w);
    this.changed();
  }

  private workerOf(j: RefJob): Worker | undefined {
    return this.workers.find((w) => w.job === j);
  }

  private setDeadline(j: RefJob, atMs: number, isTtl: boolean): void {
    j.deadlineMs = atMs;
    j.deadlineIsTtl = isTtl;
    j.deadlineStamp = this.stamps++;
  }

  // ---------------------------------------------------------------- held requests and events

  private holdUntilEnd(req: number, op: RefOp, j: RefJob, waitMs: number | undefined): RefAnswer | undefined {
    if (isEnded(j.status)) return { status: 200, body: refBody(j, this.nowMs) };
    this.holds.push({ req, op, job: j, untilMs: this.nowMs + (waitMs ?? DEFAULT_WAIT_MS), stamp: this.stamps++ });
    return undefined;
  }

  private answerHolds(j: RefJob, answer: () => RefAnswer): void {
    for (const h of this.holds.filter((x) => x.job === j)) this.answer(h, h.chat ? this.chatAnswer(h, j.gone) : answer());
  }

  /**
   * An OpenAI request's answer now (its job ended or is gone, or its wait ran out). Unstreamed:
   * the completion's finish reason and tokens, or the error. Streamed: every token's instant and
   * how the stream ended (finish reason, or the error code once it had begun).
   */
  private chatAnswer(h: Hold, gone: boolean): RefAnswer {
    const j = h.job;
    const c = h.chat!;
    const started = c.sentAt.length > 0;
    const failure = gone ? 'job_not_found' : j.status !== 'COMPLETED' ? j.status : undefined;
    if (failure !== undefined && !started) return gone ? openaiErr(NOT_FOUND()) : { status: 500, body: { code: failure } };
    if (failure !== undefined) return { status: 200, body: { tokensAt: c.sentAt, end: failure } };
    const count = j.tokens?.count ?? c.body.max_tokens ?? DEFAULT_COMPLETION_TOKENS;
    const finish = j.tokens?.capped ? 'length' : 'stop';
    if (!c.body.stream) return { status: 200, body: { finish, tokens: count } };
    // Without llm every token comes at the end.
    while (c.sentAt.length < count && !this.cfg.llm) c.sentAt.push(this.nowMs);
    const body: Record<string, unknown> = { tokensAt: c.sentAt, end: finish };
    if (c.body.stream_options?.include_usage) body.usage = c.sentAt.length;
    return { status: 200, body };
  }

  private answer(h: Hold, a: RefAnswer): void {
    this.holds = this.holds.filter((x) => x !== h);
    this.limits.release(h.op);
    this.late.push({ req: h.req, atMs: this.nowMs, ...a });
  }

  /** The earliest pending event (time, then the order it was set in), with what it does. */
  private nextEvent(): { atMs: number; fire: () => void } | undefined {
    let best: { atMs: number; stamp: number; job?: RefJob; run?: boolean; token?: number; hold?: Hold; worker?: Worker; recheck?: boolean } | undefined;
    const consider = (atMs: number, stamp: number, e: { job?: RefJob; run?: boolean; token?: number; hold?: Hold; worker?: Worker; recheck?: boolean }) => {
      if (!best || atMs < best.atMs || (atMs === best.atMs && stamp < best.stamp)) best = { atMs, stamp, ...e };
    };
    for (const j of this.jobs) {
      if (j.gone) continue;
      if (j.run) consider(j.run.atMs, j.run.stamp, { job: j, run: true });
      if (j.nextToken) consider(j.nextToken.atMs, j.nextToken.stamp, { job: j, token: j.nextToken.k });
      consider(j.deadlineMs, j.deadlineStamp, { job: j });
    }
    for (const h of this.holds) consider(h.untilMs, h.stamp, { hold: h });
    for (const w of this.workers) if (w.boot) consider(w.boot.atMs, w.boot.stamp, { worker: w });
    if (this.recheck) consider(this.recheck.atMs, this.recheck.stamp, { recheck: true });
    const e = best;
    if (!e) return undefined;
    if (e.worker) return { atMs: e.atMs, fire: () => this.ready(e.worker!) };
    if (e.recheck) {
      return {
        atMs: e.atMs,
        fire: () => {
          this.recheck = undefined;
          this.look();
        },
      };
    }
    if (e.hold) {
      return {
        atMs: e.atMs,
        fire: () => {
          const h = e.hold!;
          // A stream that has begun ends with its job, not with the wait.
          if (h.chat?.body.stream && this.cfg.llm && h.chat.sentAt.length > 0) h.untilMs = Infinity;
          else this.answer(h, h.chat ? this.chatAnswer(h, false) : { status: 200, body: refBody(h.job, this.nowMs) });
        },
      };
    }
    if (e.token) return { atMs: e.atMs, fire: () => this.tokenLanded(e.job!, e.token!) };
    const j = e.job!;
    if (e.run) return { atMs: e.atMs, fire: () => this.runEnded(j) };
    return {
      atMs: e.atMs,
      fire: () => {
        this.remove(j);
        this.changed();
      },
    };
  }
}

/** A job's token cap: its request's max_tokens (OpenAI), or input.max_tokens (/run, /runsync). */
function maxTokensOf(kind: RefJob['kind'], input: Record<string, unknown>): number | undefined {
  const m = kind === 'openai' ? (input.openai_input as RefChat).max_tokens : input.max_tokens;
  return typeof m === 'number' ? m : undefined;
}

const LIMIT_CODES = { rate: 'API_ERR_RATE_LIMITED', concurrency: 'API_ERR_CONCURRENCY_LIMITED', queue: 'API_ERR_QUEUE_FULL' } as const;
