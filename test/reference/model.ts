/**
 * A deliberately plain reference model of one warm, fixed-size endpoint (workersMin = workersMax,
 * no cold start): the job lifecycle, retention, ttl, cancel, retry, purge, limits and `/health`.
 * Every job stays in one array; on every step every deadline of every job and held request is
 * looked at again. No sweeps, lanes, wheels or compaction: speed is irrelevant here, being
 * obviously right is the point. The differential test holds the fast core to it.
 *
 * Events of one instant run in the order they were set (DESIGN: `(atMs, seq)`): each deadline
 * carries the model's counter at the moment it was set.
 */
import { DEFAULT_TTL_MS, isEnded, jobId, refBody, type RefJob, type RefStatus } from './job.js';
import { RefLimits, type RefLimitsConfig, type RefOp } from './limits.js';

export interface RefConfig {
  /** workersMin = workersMax. */
  workers: number;
  executionTimeoutMs: number;
  retention: { runMs: number; runsyncMs: number };
  limits: RefLimitsConfig;
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
  | { op: 'purge-queue' | 'health' };

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
}

interface Worker {
  n: number;
  job: RefJob | undefined;
}

const DEFAULT_WAIT_MS = 90_000;
const err = (status: number, code: string, cause?: string): RefAnswer => ({ status, body: cause ? { code, cause } : { code } });
const NOT_FOUND = (): RefAnswer => err(404, 'API_ERR_JOB_NOT_FOUND');

export class RefModel {
  nowMs = 0;
  readonly jobs: RefJob[] = [];
  /** Queued jobs; the next to run is the first normal one, else the first lowPriority one. */
  private queue: RefJob[] = [];
  private readonly workers: Worker[] = [];
  /** Idle workers; a job goes to the most recently idle (the last). */
  private readonly idle: Worker[] = [];
  private holds: Hold[] = [];
  readonly late: RefLateAnswer[] = [];
  readonly limits: RefLimits;
  private readonly counters = { completed: 0, failed: 0, retried: 0 };
  private stamps = 0;

  constructor(private readonly cfg: RefConfig) {
    this.limits = new RefLimits(cfg.limits);
    for (let n = 1; n <= cfg.workers; n++) {
      const w = { n, job: undefined };
      this.workers.push(w);
      this.idle.push(w);
    }
  }

  /** Answers a request at the current time; undefined while it is held (see `late`). */
  request(r: RefRequest, req: number): RefAnswer | undefined {
    const cause = this.limits.admit(r.op, this.nowMs, this.workers.length);
    if (cause) return err(429, LIMIT_CODES[cause], cause);
    const a = this.route(r, req);
    if (a) this.limits.release(r.op);
    return a;
  }

  private route(r: RefRequest, req: number): RefAnswer | undefined {
    if (r.op === 'run' || r.op === 'runsync') {
      if (this.limits.queueFull(this.queue.length, this.cfg.workers)) {
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
        return { status: 200, body: { id: jobId(j.index), status: j.status } };
      case 'retry':
        if (j.status !== 'FAILED' && j.status !== 'TIMED_OUT') return err(400, 'API_ERR_NOT_RETRYABLE');
        this.retry(j);
        return { status: 200, body: { id: jobId(j.index), status: 'IN_QUEUE' } };
    }
  }

  /** Moves the clock `ms` forward, running every event due on the way in order. */
  advance(ms: number): void {
    const until = this.nowMs + ms;
    for (let e = this.nextEvent(); e && e.atMs <= until; e = this.nextEvent()) {
      if (e.atMs > this.nowMs) this.nowMs = e.atMs;
      e.fire();
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
    const running = this.workers.filter((w) => w.job).length;
    return {
      jobs: { ...this.counters, inProgress: running, inQueue: this.queue.length },
      workers: { idle: this.idle.length, initializing: 0, ready: this.workers.length, running, throttled: 0, unhealthy: 0 },
    };
  }

  // ---------------------------------------------------------------- lifecycle

  /** A job is known until its deadline (a result due now is already gone for readers). */
  private find(index: number): RefJob | undefined {
    const j = this.jobs[index];
    return j && !j.gone && j.deadlineMs > this.nowMs ? j : undefined;
  }

  private submit(kind: 'run' | 'runsync', body: RefJobBody): RefJob {
    const sim = (body.input.sim ?? {}) as { durationMs?: number; fail?: boolean | string; crash?: boolean };
    const ttlMs = body.policy?.ttl ?? DEFAULT_TTL_MS;
    const j: RefJob = {
      index: this.jobs.length, kind, input: body.input, durationMs: sim.durationMs ?? 1000, fail: sim.fail, crash: sim.crash === true,
      ttlMs, executionTimeoutMs: body.policy?.executionTimeout ?? this.cfg.executionTimeoutMs, lowPriority: body.policy?.lowPriority === true,
      submittedAtMs: this.nowMs, status: 'IN_QUEUE', gone: false, deadlineMs: this.nowMs + ttlMs, deadlineStamp: this.stamps++,
      deadlineIsTtl: true, retentionOverrideMs: undefined, enqueuedAtMs: this.nowMs, startedAtMs: undefined,
      executionTimeMs: undefined, worker: undefined, run: undefined, output: undefined, error: undefined, retries: 0, crashed: false,
    };
    this.jobs.push(j);
    this.queue.push(j);
    this.dispatch();
    return j;
  }

  /** The next job to run: normal jobs first, each priority in queue order. Taken off the queue. */
  private next(): RefJob | undefined {
    const j = this.queue.find((q) => !q.lowPriority) ?? this.queue[0];
    if (j) this.queue = this.queue.filter((q) => q !== j);
    return j;
  }

  private dispatch(): void {
    while (this.queue.length > 0 && this.idle.length > 0) this.start(this.idle.pop()!, this.next()!);
  }

  /** The run's end is decided now: a crash halfway (once), the timeout, or the job's duration. */
  private start(w: Worker, j: RefJob): void {
    w.job = j;
    j.worker = w.n;
    j.status = 'IN_PROGRESS';
    j.startedAtMs = this.nowMs;
    const half = Math.floor(j.durationMs / 2);
    const run = j.crash && !j.crashed && half < j.executionTimeoutMs
      ? { ms: half, outcome: 'crash' as const }
      : j.durationMs > j.executionTimeoutMs ? { ms: j.executionTimeoutMs, outcome: 'timeout' as const } : { ms: j.durationMs, outcome: 'complete' as const };
    j.run = { atMs: this.nowMs + run.ms, outcome: run.outcome, stamp: this.stamps++ };
  }

  private runEnded(j: RefJob): void {
    const outcome = j.run!.outcome;
    if (outcome === 'crash') return this.crash(j);
    if (outcome === 'timeout') return this.finish(j, 'TIMED_OUT', undefined, `execution timeout of ${j.executionTimeoutMs} ms exceeded`);
    if (j.fail !== undefined && j.fail !== false) return this.finish(j, 'FAILED', undefined, j.fail === true ? 'simulated failure' : j.fail);
    this.finish(j, 'COMPLETED', j.input, undefined);
  }

  /** The worker dies mid-job: the job goes back to the front of its priority, the worker restarts at once. */
  private crash(j: RefJob): void {
    const w = this.workerOf(j)!;
    w.job = undefined;
    j.worker = j.startedAtMs = j.run = undefined;
    j.crashed = true;
    j.retries++;
    this.counters.retried++;
    j.status = 'IN_QUEUE';
    j.enqueuedAtMs = this.nowMs;
    this.queue.unshift(j);
    this.idle.push(w);
    this.dispatch();
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
    this.answerHolds(j, () => ({ status: 200, body: refBody(j, this.nowMs) }));
    this.reuse(w);
  }

  private retry(j: RefJob): void {
    j.status = 'IN_QUEUE';
    j.output = j.error = j.worker = j.executionTimeMs = j.startedAtMs = undefined;
    j.crashed = false;
    j.enqueuedAtMs = this.nowMs;
    this.counters.retried++;
    // Back under its ttl, counted from submission.
    if (!j.deadlineIsTtl) this.setDeadline(j, j.submittedAtMs + j.ttlMs, true);
    this.queue.push(j);
    this.dispatch();
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
    j.run = undefined;
    return this.workerOf(j);
  }

  /** A worker whose job ended takes the next queued job, or goes idle. */
  private reuse(w: Worker | undefined): void {
    if (!w) return;
    w.job = undefined;
    const next = this.next();
    if (next) this.start(w, next);
    else this.idle.push(w);
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
    for (const h of this.holds.filter((x) => x.job === j)) this.answer(h, answer());
  }

  private answer(h: Hold, a: RefAnswer): void {
    this.holds = this.holds.filter((x) => x !== h);
    this.limits.release(h.op);
    this.late.push({ req: h.req, atMs: this.nowMs, ...a });
  }

  /** The earliest pending event (time, then the order it was set in), with what it does. */
  private nextEvent(): { atMs: number; fire: () => void } | undefined {
    let best: { atMs: number; stamp: number; job?: RefJob; run?: boolean; hold?: Hold } | undefined;
    const consider = (atMs: number, stamp: number, e: { job?: RefJob; run?: boolean; hold?: Hold }) => {
      if (!best || atMs < best.atMs || (atMs === best.atMs && stamp < best.stamp)) best = { atMs, stamp, ...e };
    };
    for (const j of this.jobs) {
      if (j.gone) continue;
      if (j.run) consider(j.run.atMs, j.run.stamp, { job: j, run: true });
      consider(j.deadlineMs, j.deadlineStamp, { job: j });
    }
    for (const h of this.holds) consider(h.untilMs, h.stamp, { hold: h });
    const e = best;
    if (!e) return undefined;
    if (e.hold) return { atMs: e.atMs, fire: () => this.answer(e.hold!, { status: 200, body: refBody(e.hold!.job, this.nowMs) }) };
    const j = e.job!;
    if (e.run) return { atMs: e.atMs, fire: () => this.runEnded(j) };
    return { atMs: e.atMs, fire: () => this.remove(j) };
  }
}

const LIMIT_CODES = { rate: 'API_ERR_RATE_LIMITED', concurrency: 'API_ERR_CONCURRENCY_LIMITED', queue: 'API_ERR_QUEUE_FULL' } as const;
