/**
 * The balancer of a load-balancing endpoint (`type: load-balancer`; docs/endpoint.md
 * "Load-balancing endpoints"). There is no job queue: the endpoint's `JobQueue` holds the
 * requests waiting at the balancer, oldest first, and the endpoint's dispatch routes them as it
 * routes queued jobs (a ready worker with room: an idle one, the most recently idle; else the
 * running one with the fewest requests in flight, the oldest on a tie). What this file adds:
 *
 * - A request waits at most 2 min for a worker (`NO_WORKER_WAIT_MS`), then ends `no-workers`.
 * - Affinity (the `X-Runpod-Worker-Id` a client sends back): `soft` takes its worker when that one
 *   is ready with room, else is routed as any request; `strict` waits for its worker alone (pinned
 *   to it, out of the shared wait) while that one is at capacity or starting, at most 5 min
 *   (`STRICT_WAIT_MS`), then ends `worker-timeout`, or `worker-gone` when its worker stops
 *   meanwhile; `strict-resume` also starts its worker again, under its own id, when it has stopped.
 * - Counters of the requests it ended, by cause (/health's `balancer.failed`; the endpoint counts).
 *
 * The endpoint calls in at a request's arrival (`route`, `waitForAny`), when a worker gets room
 * (`nextFor`: its pinned requests go before the shared wait) and when a worker stops (`stopped`).
 */
import { BALANCER_CAUSES, type BalancerCause } from '../contract/sim-events.js';
import { NO_WORKER_WAIT_MS } from '../contract/endpoint-presets.js';
import type { Scheduler } from '../lib/scheduler.js';
import { extras, type BalancerWait, type Job } from './job.js';
import type { JobQueue } from './job-queue.js';
import type { Worker } from './worker.js';
import type { WorkerPool } from './worker-pool.js';

/** RunPod: a `strict` affinity request waits up to ~5 min while its worker is at capacity, then 400 `worker_timeout`. */
export const STRICT_WAIT_MS = 300_000;
/** The longest a request can wait at the balancer before a worker takes it. */
export const BALANCER_WAIT_MAX_MS = Math.max(NO_WORKER_WAIT_MS, STRICT_WAIT_MS);

export type AffinityMode = 'soft' | 'strict' | 'strict-resume';

/** A request's affinity: the worker (by number) it names and how strictly. */
export interface Affinity {
  readonly mode: AffinityMode;
  readonly worker: number;
}

/** What the balancer asks of its endpoint. */
export interface BalancerHost {
  /** Starts `j` on `w` now (`w` ready with room, claimed). */
  start(w: Worker, j: Job): void;
  /** Ends `j` (waiting, pinned or running) with the balancer's `cause`. */
  fail(j: Job, cause: BalancerCause): void;
}

export class Balancer {
  /** Requests ended by the balancer, by cause, in all. */
  readonly failed: Record<BalancerCause, number> = Object.fromEntries(BALANCER_CAUSES.map((c) => [c, 0])) as Record<BalancerCause, number>;
  /** Requests pinned to a worker by strict affinity, waiting for it: per worker number, oldest first. */
  private readonly pins = new Map<number, Job[]>();
  /** Are requests pinned to some worker now? (A worker's list goes when it empties.) */
  get anyPinned(): boolean {
    return this.pins.size > 0;
  }

  /** Requests waiting at the balancer: the shared wait and those pinned to a worker (/health, /metrics). */
  get pending(): number {
    let n = this.queue.length;
    for (const list of this.pins.values()) n += list.length;
    return n;
  }

  constructor(
    private readonly sched: Scheduler,
    private readonly pool: WorkerPool,
    private readonly queue: JobQueue,
    private readonly host: BalancerHost,
  ) {}

  /**
   * Routes a new request by its affinity: true when it started on its worker or waits pinned to
   * it; false when it is the endpoint's to route as any request (no affinity, or a soft one whose
   * worker has no room). The API refused a strict request whose worker is gone (`refuses`).
   */
  route(j: Job, a: Affinity | undefined): boolean {
    if (a === undefined) return false;
    const w = this.pool.byNumber(a.worker);
    if (w === undefined && a.mode === 'strict-resume' && this.pool.canResume(a.worker)) {
      this.resume(j, a.worker);
      return true;
    }
    if (w !== undefined && this.pool.hasRoom(w)) {
      this.pool.claim(w);
      this.host.start(w, j);
      return true;
    }
    if (a.mode === 'soft') return false;
    if (w === undefined) this.host.fail(j, 'worker-gone');
    else this.pin(j, w.n);
    return true;
  }

  /** Why a request with affinity `a` cannot be taken at all now (its strict worker is gone for good), or undefined. */
  refuses(a: Affinity | undefined): BalancerCause | undefined {
    if (a === undefined || a.mode === 'soft' || this.pool.byNumber(a.worker) !== undefined) return undefined;
    return a.mode === 'strict-resume' && this.pool.canResume(a.worker) ? undefined : 'worker-gone';
  }

  /** `j` waits in the shared wait (no worker had room): it gets "no workers available" in 2 min unless a worker takes it. */
  waitForAny(j: Job): void {
    this.waitOf(j).timer = this.sched.after(NO_WORKER_WAIT_MS, this.noWorkers, j);
  }

  /** A worker takes `j`: its wait ends. */
  started(j: Job): void {
    const b = j.x?.lb;
    if (b === undefined) return;
    this.sched.cancel(b.timer);
    b.timer = undefined;
  }

  /** The next request pinned to `w` (it has room), taken out of its wait; undefined when none. */
  nextFor(w: Worker): Job | undefined {
    if (this.pins.size === 0) return undefined;
    const list = this.pins.get(w.n);
    const j = list?.shift();
    if (j === undefined) return undefined;
    if (list!.length === 0) this.pins.delete(w.n);
    j.x!.lb!.pinnedTo = -1;
    return j;
  }

  /**
   * Worker `w` is stopping: the requests pinned to it end `worker-gone`, by an event of this same
   * ms (the pool is in the middle of the stop: what their end sets off must find it done).
   */
  stopped(w: Worker): void {
    if (this.pins.size === 0) return;
    const list = this.pins.get(w.n);
    if (list === undefined) return;
    this.pins.delete(w.n);
    for (const j of list) {
      const b = j.x!.lb!;
      b.pinnedTo = -1;
      this.sched.cancel(b.timer);
      b.timer = this.sched.after(0, this.gone, j);
    }
  }

  private readonly gone = (j: Job): void => {
    j.x!.lb!.timer = undefined;
    this.host.fail(j, 'worker-gone');
  };

  /** The balancer ends `j` with `cause`: its wait ends (the endpoint calls it as it ends the request, and counts it). */
  ended(j: Job, cause: BalancerCause): void {
    const b = this.waitOf(j);
    this.sched.cancel(b.timer);
    b.timer = undefined;
    b.cause = cause;
  }

  /**
   * `strict-resume`: stopped worker `n` starts again for `j`, which waits pinned to it from before
   * its start, so the worker serves it first even when ready at once (no cold start) while other
   * requests wait in the shared wait. Its 5 min are armed after the start, as for any pinned request.
   */
  private resume(j: Job, n: number): void {
    this.pinOnly(j, n);
    this.pool.start(n);
    const b = j.x!.lb!;
    if (b.pinnedTo === n) b.timer = this.sched.after(STRICT_WAIT_MS, this.strictTimeout, j);
  }

  private pin(j: Job, n: number): void {
    this.pinOnly(j, n);
    j.x!.lb!.timer = this.sched.after(STRICT_WAIT_MS, this.strictTimeout, j);
  }

  /** `j` waits for worker `n` alone (its timer not armed). */
  private pinOnly(j: Job, n: number): void {
    const b = this.waitOf(j);
    b.pinnedTo = n;
    const list = this.pins.get(n);
    if (list === undefined) this.pins.set(n, [j]);
    else list.push(j);
  }

  private waitOf(j: Job): BalancerWait {
    return (extras(j).lb ??= { timer: undefined, pinnedTo: -1, cause: undefined });
  }

  /** 2 min in the shared wait and no worker took it. */
  private readonly noWorkers = (j: Job): void => {
    j.x!.lb!.timer = undefined;
    if (j.status !== 'IN_QUEUE') return;
    this.queue.remove(j);
    this.host.fail(j, 'no-workers');
  };

  /** 5 min pinned and its worker never had room. */
  private readonly strictTimeout = (j: Job): void => {
    const b = j.x!.lb!;
    b.timer = undefined;
    const list = this.pins.get(b.pinnedTo);
    const i = list?.indexOf(j) ?? -1;
    if (i < 0) return;
    list!.splice(i, 1);
    if (list!.length === 0) this.pins.delete(b.pinnedTo);
    b.pinnedTo = -1;
    this.host.fail(j, 'worker-timeout');
  };
}
