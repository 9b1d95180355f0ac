/**
 * Scaling decisions. Pure functions of the queue and pool; the endpoint
 * applies them.
 * - Always: with no live worker, a queued normal job starts one at once; workersMin is kept.
 * - QUEUE_DELAY (value in seconds): one more worker for each queued normal job that has waited
 *   at least `value` s and is not already covered by a worker that is starting.
 * - REQUEST_COUNT (value = jobs per worker): target = ceil((normal queued + jobs in progress) / value),
 *   applied at the end of each millisecond (scheduler.ts `atEndOfMs`), once every arrival and
 *   completion of that ms is in: workers start up to it, idle workers above it stop (the idle
 *   timeout does not apply; on a load-balancing endpoint it does: its idle workers stop at their
 *   idle timeout, down to the target, worker-pool.ts). A worker that goes idle in the same ms as a job
 *   arrives takes that job, in whichever order the two come, and nothing starts or stops for it.
 * lowPriority jobs never trigger scale-up.
 */
import type { EndpointConfig } from '../contract/endpoint-config.js';
import type { JobQueue } from './job-queue.js';
import type { Scheduler, Timer } from '../lib/scheduler.js';
import type { Worker } from './worker.js';
import type { WorkerPool } from './worker-pool.js';

export interface ScaleDecision {
  /** Workers to start now. */
  add: number;
  /** When to look again (QUEUE_DELAY: when the next queued job reaches the threshold). */
  recheckAtMs: number | undefined;
}

/**
 * Decides into `out` (reused: this runs on every dispatch) and returns it. `requestCount`:
 * `cfg.scaler.type === 'REQUEST_COUNT'`, compared once by the caller: the type was parsed from
 * a file, so it is not an interned string and `===` against a literal compares characters in a
 * runtime call (1.5 % of the diurnal day's CPU when done here on every dispatch).
 */
function decide(cfg: EndpointConfig, requestCount: boolean, nowMs: number, queue: JobQueue, pool: WorkerPool, out: ScaleDecision): ScaleDecision {
  out.recheckAtMs = undefined;
  const room = cfg.workersMax - pool.total;
  let add = Math.max(0, cfg.workersMin - pool.total);
  if (queue.normalLength > 0 && pool.live === 0 && add === 0) add = 1;
  if (room <= add) {
    out.add = Math.max(0, Math.min(add, room));
    return out;
  }

  if (requestCount) {
    const target = requestCountTarget(cfg, queue, pool);
    out.add = Math.min(room, Math.max(add, target - pool.total));
    return out;
  }

  // QUEUE_DELAY: jobs a crash sent back wait first (the latest crash first), each back in the
  // queue since its crash; behind them the queue is oldest first: walk it while jobs are overdue.
  const thresholdMs = Math.round(cfg.scaler.value * 1000);
  const edge = nowMs - thresholdMs;
  let overdue = 0;
  let recheckAtMs = Infinity;
  let j = queue.oldestNormal;
  for (; j && j.x !== undefined && j.x.crashed; j = j.next) {
    if (j.enqueuedAtMs <= edge) overdue++;
    else recheckAtMs = Math.min(recheckAtMs, j.enqueuedAtMs + thresholdMs);
  }
  const want = room + pool.counts.initializing;
  while (j && j.enqueuedAtMs <= edge && overdue < want) {
    overdue++;
    j = j.next;
  }
  if (j && j.enqueuedAtMs > edge) recheckAtMs = Math.min(recheckAtMs, j.enqueuedAtMs + thresholdMs);
  const extra = Math.max(0, overdue - pool.counts.initializing);
  add = Math.min(room, Math.max(add, extra));
  out.add = add;
  out.recheckAtMs = recheckAtMs === Infinity ? undefined : recheckAtMs;
  return out;
}

export function requestCountTarget(cfg: EndpointConfig, queue: JobQueue, pool: WorkerPool): number {
  const t = Math.ceil((queue.normalLength + pool.jobsHeld) / cfg.scaler.value);
  return Math.min(cfg.workersMax, Math.max(cfg.workersMin, t));
}

/**
 * Applies the decisions: after every dispatch, and again when a queued job reaches the
 * QUEUE_DELAY threshold. Workers start one at a time (a worker with no cold start is ready at
 * once and may change the next decision).
 */
export class ScaleLoop {
  private timer: Timer | undefined;
  private busy = false;
  private readonly decision: ScaleDecision = { add: 0, recheckAtMs: undefined };
  /**
   * Does `decide` add nothing when no normal job waits and workersMin is met? QUEUE_DELAY: yes.
   * REQUEST_COUNT: its target is ceil(jobs in progress / value), and running workers hold at most
   * workerConcurrency jobs each, so the target is at most the workers there are when value >=
   * workerConcurrency; a smaller value asks for more workers than are running (2 jobs on one
   * worker at value 1 want a second worker).
   */
  private readonly idleWhenQueueEmpty: boolean;
  /** The REQUEST_COUNT scaler (see `decide`). */
  private readonly requestCount: boolean;
  /**
   * Does it stop idle workers above its target? On a queue endpoint, yes (no idle timeout); a
   * load-balancing endpoint's workers have an idle timer ("any request resets the worker's idle
   * timer"): they stop at their idle timeout (worker-pool.ts), down to the target.
   */
  private readonly stopsIdle: boolean;

  constructor(
    private readonly cfg: EndpointConfig,
    private readonly sched: Scheduler,
    private readonly queue: JobQueue,
    private readonly pool: WorkerPool,
  ) {
    this.requestCount = cfg.scaler.type === 'REQUEST_COUNT';
    this.stopsIdle = this.requestCount && cfg.type !== 'load-balancer';
    this.idleWhenQueueEmpty = !this.requestCount || cfg.scaler.value >= cfg.workerConcurrency;
  }

  private readonly recheck = (): void => this.run();

  run(): void {
    // REQUEST_COUNT: workers waiting for a place, or (a queue endpoint) an idle worker, above the
    // target stop at the end of the ms (the target may have fallen while the workers holding jobs
    // keep some).
    if (this.requestCount && !this.atEnd && (this.pool.waiting > 0 || (this.stopsIdle && this.idleAboveTarget()))) this.atEndOfMs();
    // With no normal job waiting and workersMin met, `decide` adds nothing (idleWhenQueueEmpty):
    // the common case on every dispatch of a well-provisioned endpoint, so skip the call.
    if (this.busy || (this.queue.normalLength === 0 && this.idleWhenQueueEmpty && this.pool.total >= this.cfg.workersMin)) return;
    // REQUEST_COUNT with a live worker: decide at the end of the ms (a worker may go idle later in
    // it and take the job). With none, the first one starts at once.
    if (this.requestCount && !this.atEnd && this.pool.live > 0) return this.atEndOfMs();
    this.busy = true;
    const d = decide(this.cfg, this.requestCount, this.sched.nowMs, this.queue, this.pool, this.decision);
    while (d.add > 0) {
      this.pool.start();
      decide(this.cfg, this.requestCount, this.sched.nowMs, this.queue, this.pool, d);
    }
    this.busy = false;
    if (d.recheckAtMs !== undefined && (!this.timer || this.timer.idx < 0 || this.timer.atMs > d.recheckAtMs)) {
      // One timer, re-armed: a recheck per dispatch allocates nothing.
      this.timer = this.timer ? this.sched.again(this.timer, d.recheckAtMs) : this.sched.at(d.recheckAtMs, this.recheck);
    }
  }

  /**
   * REQUEST_COUNT's decisions at the end of the ms: idle workers above the target stop, workers
   * start up to it (see `run`). The endpoint asks for it when a worker goes idle above the target
   * (`surplus`). One timer, reused; asked for again in the same ms, it stays one event.
   */
  atEndOfMs(): void {
    if (this.endTimer) this.sched.againAtEndOfMs(this.endTimer);
    else this.endTimer = this.sched.atEndOfMs(this.runAtEnd);
  }

  private endTimer: Timer | undefined = undefined;
  private atEnd = false;
  private readonly runAtEnd = (): void => {
    // Workers waiting for a place above the target go first (they cost nothing and are not
    // ready), then the most recently idle (the others may be kept by workersMin anyway).
    if (this.pool.waiting > 0) this.pool.withdrawWaiting(requestCountTarget(this.cfg, this.queue, this.pool));
    for (let w = this.pool.newestIdle(); w !== undefined && this.surplus(w); w = this.pool.newestIdle()) this.pool.stop(w);
    this.atEnd = true;
    this.run();
    this.atEnd = false;
  };

  private idleAboveTarget(): boolean {
    const w = this.pool.newestIdle();
    return w !== undefined && this.surplus(w);
  }

  /** The workers an idle timeout leaves: workersMin; on a load-balancing endpoint its target (see `stopsIdle`). */
  keep(): number {
    return this.cfg.type === 'load-balancer' ? requestCountTarget(this.cfg, this.queue, this.pool) : this.cfg.workersMin;
  }

  /** REQUEST_COUNT on a queue endpoint (no idle timeout): is idle worker `w` above the target, so it should stop? */
  surplus(w: Worker): boolean {
    return this.stopsIdle && w.state === 'idle' && this.pool.total > requestCountTarget(this.cfg, this.queue, this.pool);
  }
}
