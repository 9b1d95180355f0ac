/**
 * The reference model's workers and scaler (docs/api.md "Scaling"): workersMin to workersMax, cold
 * starts (also of a worker restarting after a crash), QUEUE_DELAY and REQUEST_COUNT, the idle
 * timeout, and which worker takes a queued job.
 *
 * A worker holds up to workerConcurrency jobs. Queued jobs go to idle workers first (the most
 * recently idle), then to running workers with room (the one holding fewest, the oldest on a tie).
 *
 * Cold starts are a constant or uniform draws from the stream the core draws from (the same seed
 * and stream name), one draw per start, in the order the model starts workers.
 *
 * A start longer than initTimeoutMs ends at initTimeoutMs with the worker unhealthy, for good: it
 * takes no job, still counts against workersMax (and workersMin), but is not live, so the
 * scaler's rules that ask "is any worker live?" do not count it, nor does QUEUE_DELAY's "less
 * those starting".
 *
 * GPU types (model-hosts.ts): a worker starting with no room on any type is throttled, waiting; it
 * counts against workersMax but is not live and is not starting (it draws its cold start when it is
 * placed). A waiting worker never gets a place (the room is fixed, and the endpoint's own workers
 * stop only when nothing wants them): it is withdrawn (stopped, the newest first) before an idle
 * worker stops: down to workersMin when an idle timeout comes, down to REQUEST_COUNT's target at
 * the end of each ms.
 *
 * A load-balancing endpoint scales by REQUEST_COUNT, but its workers have an idle timer: an idle
 * worker stops at its idle timeout (the oldest idle first) while more than the target remain.
 */
import { Alea } from '../../src/lib/random.js';
import type { RefEngine } from './engine.js';
import type { RefJob } from './job.js';
import { firstWithRoom, gpuTypes, type GpuType } from './model-hosts.js';
import { RefState, type Worker } from './model-state.js';
import type { Planned, RefConfig } from './types.js';

export abstract class RefWorkers extends RefState {
  /** The number the next new worker gets (a resumed worker keeps its own). */
  protected nextWorker = 1;
  /** QUEUE_DELAY: when the scaler looks again (a queued job reaches the threshold). */
  protected recheck: Planned | undefined;
  private looking = false;
  private readonly draws: Alea;
  /** Waiting workers withdrawn, in all (coverage figures). */
  withdrawn = 0;
  /** The GPU types in priority order, with their room. */
  protected readonly types: GpuType[];

  constructor(cfg: RefConfig) {
    super(cfg);
    this.draws = new Alea(`${cfg.seed}/ep/coldstart`);
    this.types = gpuTypes(cfg);
  }

  /** `w` (idle or running with room) takes `j`. */
  protected abstract start(w: Worker, j: RefJob): void;
  /** The engine of a worker placed on GPU type `t` (llm.engine), else undefined. */
  protected abstract newEngine(t: number): RefEngine | undefined;
  /** `w` became ready (or restarted with no cold start): a load-balancing endpoint's requests waiting for it alone go first. */
  protected abstract feedPinned(w: Worker): void;
  /** `w` stopped: a load-balancing endpoint's requests waiting for it alone learn it is gone. */
  protected abstract workerStopped(w: Worker): void;

  /** Queued jobs go to idle workers, the most recently idle first, then to running workers with room. */
  protected dispatch(): void {
    while (this.queue.length > 0) {
      const w = this.idle.pop() ?? this.withRoom();
      if (!w) return;
      this.start(w, this.next()!);
    }
  }

  /** The running worker holding the fewest jobs, below workerConcurrency; the oldest on a tie. */
  private withRoom(): Worker | undefined {
    let best: Worker | undefined;
    for (const w of this.workers) {
      if (w.state === 'running' && w.jobs.length < this.cfg.workerConcurrency && (!best || w.jobs.length < best.jobs.length)) best = w;
    }
    return best;
  }

  /** After any change: idle workers take jobs, then the scaler looks. */
  protected changed(): void {
    this.dispatch();
    this.look();
  }

  protected makeIdle(w: Worker): void {
    w.state = 'idle';
    w.idleSinceMs = this.nowMs;
    this.idle.push(w);
  }

  /** A new worker (or stopped worker `n` again: strict-resume), placed and booting, or throttled waiting for room on a GPU type. */
  protected startWorker(n = this.nextWorker++): Worker {
    const w: Worker = { n, state: 'throttled', gpu: -1, jobs: [], engine: undefined, boot: undefined, idleSinceMs: 0 };
    this.workers.push(w);
    this.place(w);
    return w;
  }

  /** `w` takes a place on the first GPU type with room, with that type's engine, and boots; false (left as it is) with no room. */
  private place(w: Worker): boolean {
    const t = firstWithRoom(
      this.types,
      this.workers.map((x) => x.gpu),
    );
    if (t < 0) return false;
    w.gpu = t;
    w.engine = this.newEngine(t);
    this.boot(w);
    return true;
  }

  /** A (re)start: ready after its cold start; at once when that is 0 ms, taking a queued job. */
  protected boot(w: Worker): void {
    w.state = 'initializing';
    const c = this.cfg.coldStart;
    const ms = typeof c === 'number' ? c : Math.max(0, Math.round(c.minMs + this.draws.next() * (c.maxMs - c.minMs)));
    const timesOut = ms > this.cfg.initTimeoutMs;
    if (ms > 0) {
      w.boot = { atMs: this.nowMs + (timesOut ? this.cfg.initTimeoutMs : ms), stamp: this.stamp(), timesOut };
      return;
    }
    this.makeIdle(w);
    this.feedPinned(w);
    this.dispatch();
  }

  protected ready(w: Worker): void {
    w.boot = undefined;
    this.makeIdle(w);
    this.feedPinned(w);
    this.changed();
  }

  /** Its start ran past initTimeoutMs: unhealthy for good; the scaler looks again. */
  protected unhealthy(w: Worker): void {
    w.boot = undefined;
    w.state = 'unhealthy';
    this.look();
  }

  /** Workers that run or will soon run jobs: all but the unhealthy and those waiting for a place. */
  private live(): number {
    return this.workers.filter((w) => w.state !== 'unhealthy' && w.state !== 'throttled').length;
  }

  /** Workers waiting for a place, longest waiting first. */
  private waitingWorkers(): Worker[] {
    return this.workers.filter((y) => y.gpu < 0);
  }

  /** Stops waiting workers, the newest first, while more than `keep` workers remain. */
  private withdrawWaiting(keep: number): void {
    for (let ws = this.waitingWorkers(); ws.length > 0 && this.workers.length > keep; ws = this.waitingWorkers()) {
      const x = ws[ws.length - 1]!;
      this.workers = this.workers.filter((y) => y !== x);
      this.withdrawn++;
      this.workerStopped(x);
    }
  }

  /** `w` stops (its place, if it had one, stays free: no worker waits for it by then). */
  private stopWorker(w: Worker): void {
    this.workers = this.workers.filter((x) => x !== w);
    this.idle = this.idle.filter((x) => x !== w);
    this.workerStopped(w);
  }

  /**
   * The scaler's look, after every change: start the workers wanted now, one at a time. Then
   * (QUEUE_DELAY) look again when the next queued normal job reaches the threshold.
   */
  protected look(): void {
    if (this.looking) return;
    this.looking = true;
    const noneLive = this.live() === 0;
    while (this.wantedNow(noneLive) > 0) this.startWorker();
    this.looking = false;
    if (this.cfg.scaler.type !== 'QUEUE_DELAY') return;
    const t = this.thresholdMs();
    const later = this.queue.filter((j) => !j.lowPriority && j.enqueuedAtMs + t > this.nowMs).map((j) => j.enqueuedAtMs + t);
    if (later.length === 0) return;
    const at = Math.min(...later);
    if (!this.recheck || this.recheck.atMs > at) this.recheck = { atMs: at, stamp: this.stamp() };
  }

  private thresholdMs(): number {
    return Math.round(this.cfg.scaler.value * 1000);
  }

  /**
   * Workers to start now: up to workersMin; one when a normal job waits and no worker is live;
   * QUEUE_DELAY: one per normal job that has waited the threshold, less those starting.
   * REQUEST_COUNT: up to the target when `full` (the look began with no worker live: none can go
   * idle later in the ms to take a job; or it is the end of the ms); else the rest at the end of
   * the ms (`endOfMs`). Never past workersMax.
   */
  private wantedNow(full: boolean): number {
    const total = this.workers.length;
    const room = this.cfg.workersMax - total;
    const normal = this.queue.filter((j) => !j.lowPriority);
    let base = Math.max(0, this.cfg.workersMin - total);
    if (base === 0 && normal.length > 0 && this.live() === 0) base = 1;
    if (this.cfg.scaler.type === 'REQUEST_COUNT') return Math.min(room, full ? Math.max(base, this.target() - total) : base);
    const overdue = normal.filter((j) => this.nowMs - j.enqueuedAtMs >= this.thresholdMs()).length;
    return Math.min(room, Math.max(base, overdue - this.count('initializing')));
  }

  /** REQUEST_COUNT: ceil((normal queued + jobs in progress) / value), within workersMin and workersMax. */
  private target(): number {
    const normal = this.queue.filter((j) => !j.lowPriority).length;
    const t = Math.ceil((normal + this.inProgress()) / this.cfg.scaler.value);
    return Math.min(this.cfg.workersMax, Math.max(this.cfg.workersMin, t));
  }

  /**
   * The end of the current ms. REQUEST_COUNT: idle workers above the target stop, the most
   * recently idle first, then workers start up to it. QUEUE_DELAY: idle workers idle for
   * idleTimeoutMs stop, the oldest idle first, while more than workersMin remain.
   */
  protected endOfMs(): void {
    if (this.cfg.scaler.type === 'REQUEST_COUNT') {
      this.withdrawWaiting(this.target());
      if (this.cfg.balancer === true) {
        // A load-balancing endpoint's workers have an idle timer: those idle for idleTimeoutMs
        // stop, the oldest idle first, while more than the target remain.
        for (let w = this.idle[0]; w && w.idleSinceMs + this.cfg.idleTimeoutMs <= this.nowMs && this.workers.length > this.target(); w = this.idle[0])
          this.stopWorker(w);
      } else while (this.idle.length > 0 && this.workers.length > this.target()) this.stopWorker(this.idle[this.idle.length - 1]!);
      while (this.wantedNow(true) > 0) this.startWorker();
      return;
    }
    const due = this.idle[0];
    if (due && due.idleSinceMs + this.cfg.idleTimeoutMs <= this.nowMs) this.withdrawWaiting(this.cfg.workersMin);
    for (let w = this.idle[0]; w && w.idleSinceMs + this.cfg.idleTimeoutMs <= this.nowMs; w = this.idle[0]) {
      if (this.workers.length <= this.cfg.workersMin) return;
      this.stopWorker(w);
    }
  }

  /** QUEUE_DELAY, or a load-balancing endpoint: the next time an idle worker reaches its idle timeout, after now. */
  protected nextIdleTimeout(): number {
    if (this.cfg.scaler.type !== 'QUEUE_DELAY' && this.cfg.balancer !== true) return Infinity;
    const at = this.idle.map((w) => w.idleSinceMs + this.cfg.idleTimeoutMs).filter((t) => t > this.nowMs);
    return Math.min(Infinity, ...at);
  }
}
