/**
 * The reference model's balancer: a load-balancing endpoint (`type: load-balancer`, docs/endpoint.md
 * "Load-balancing endpoints"), plain. No job routes: each request is a job of kind `lb` that a
 * worker takes, answered by that worker when it ends, then gone (no retention, no retry).
 *
 * - Routing: a ready worker with room takes a request (the idle one most recently idle, else the
 *   running one holding fewest, the oldest on a tie: the model's dispatch, model-workers.ts).
 *   Without one the request waits in the shared wait (the model's queue), oldest first, at most
 *   2 min: then 503 "no workers available".
 * - A request runs at most the endpoint's executionTimeoutMs (330 s by default): then 504.
 * - A worker that crashes fails every request it holds (502, the crashing one first, then the
 *   others in the order they started) and restarts cold.
 * - Affinity (X-Runpod-Worker-Id): a bare id (soft) takes that worker when it is ready with room,
 *   else is routed as any request; `strict {id}` waits for that worker alone (not in the shared
 *   wait, not counted by the scaler) while it is full or starting, at most 5 min (400
 *   worker_timeout), and ends 404 affinity_worker_gone at once when the worker does not exist or
 *   as soon as it stops; `strict-resume {id}` also starts a stopped worker again under its id when
 *   workersMax leaves room: the worker it woke serves it first. A worker that becomes ready (or
 *   gets room) serves the requests waiting for it alone before the shared wait.
 * - /health adds what the balancer sees: requests pending and in flight, workers healthy,
 *   initializing, unhealthy, and the requests it ended by cause (a strict request refused on
 *   arrival included, though it never was a job).
 *
 * The model's answer to a request: `{answer, worker}`, the body the worker (or the balancer) gave
 * and the X-Runpod-Worker-Id of the answer, if any.
 */
import { err } from './answers.js';
import { workerName, type RefJob, type RefStatus } from './job.js';
import { RefLifecycle } from './model-jobs.js';
import type { Worker } from './model-state.js';
import type { RefAnswer, RefRequest } from './types.js';

/** RunPod: a request no worker can take waits up to 2 min. */
const SHARED_WAIT_MS = 120_000;
/** RunPod: a strict request waits up to ~5 min for its worker. */
const STRICT_WAIT_MS = 300_000;

export type BalancerCause = 'no-workers' | 'timeout' | 'dropped' | 'worker-timeout' | 'worker-gone';

/** The balancer's answers (docs/api.md "Load-balancing endpoints"); a timeout's error also says after how long. */
const BALANCER_ANSWERS: Record<BalancerCause, { status: number; error: string }> = {
  'no-workers': { status: 503, error: 'no workers available' },
  timeout: { status: 504, error: 'request timed out' },
  dropped: { status: 502, error: 'worker dropped the request' },
  'worker-timeout': { status: 400, error: 'worker_timeout' },
  'worker-gone': { status: 404, error: 'affinity_worker_gone' },
};

interface Affinity {
  mode: 'soft' | 'strict' | 'strict-resume';
  /** The worker's number; 0 for an id of no worker of this endpoint. */
  worker: number;
}

/** The affinity a header asks for, or 'bad' (neither an id nor a mode and an id). */
function parseAffinity(header: string | undefined): Affinity | undefined | 'bad' {
  if (header === undefined) return undefined;
  const words = header.split(' ').filter((w) => w !== '');
  const number = (id: string) => (/^ep-w[1-9][0-9]*$/.test(id) ? Number(id.slice(4)) : 0);
  if (words.length === 1 && words[0] !== 'strict' && words[0] !== 'strict-resume') return { mode: 'soft', worker: number(words[0]!) };
  if (words.length === 2 && (words[0] === 'strict' || words[0] === 'strict-resume')) return { mode: words[0], worker: number(words[1]!) };
  return 'bad';
}

export abstract class RefBalancer extends RefLifecycle {
  /** Requests the balancer ended, by cause. */
  readonly balancerFailed: Record<BalancerCause, number> = { 'no-workers': 0, timeout: 0, dropped: 0, 'worker-timeout': 0, 'worker-gone': 0 };
  /** Strict requests waiting for their worker alone, oldest first. */
  protected pinned: RefJob[] = [];

  protected lbRequest(r: Extract<RefRequest, { op: 'lb' }>, req: number): RefAnswer | undefined {
    const a = parseAffinity(r.affinity);
    if (a === 'bad') return err(400, 'API_ERR_BAD_REQUEST');
    let w = a && this.workers.find((x) => x.n === a.worker);
    if (a !== undefined && a.mode !== 'soft' && w === undefined && !(a.mode === 'strict-resume' && this.canResume(a.worker))) {
      this.balancerFailed['worker-gone']++;
      return { status: 404, body: { answer: { error: 'affinity_worker_gone' } } };
    }
    const j = this.newJob('lb', { input: r.body ?? {} });
    j.deadlineMs = Infinity;
    j.lb = { req, ping: r.path === '/ping', pinnedTo: -1, wait: undefined };
    if (j.lb.ping) j.durationMs = 0;
    if (a !== undefined && w === undefined && a.mode === 'strict-resume') {
      // Waiting for the worker it wakes, which serves it first once ready.
      j.lb.pinnedTo = a.worker;
      this.pinned.push(j);
      w = this.startWorker(a.worker);
      if (j.lb.pinnedTo >= 0) j.lb.wait = { atMs: this.nowMs + STRICT_WAIT_MS, stamp: this.stamp(), cause: 'worker-timeout' };
      this.look();
      return undefined;
    }
    if (a !== undefined && w !== undefined && this.hasRoom(w)) {
      this.take(w, j);
      this.look();
      return undefined;
    }
    if (a !== undefined && a.mode !== 'soft') {
      j.lb.pinnedTo = a.worker;
      this.pinned.push(j);
      j.lb.wait = { atMs: this.nowMs + STRICT_WAIT_MS, stamp: this.stamp(), cause: 'worker-timeout' };
      this.look();
      return undefined;
    }
    this.queue.push(j);
    this.changed();
    if (j.status === 'IN_QUEUE') j.lb.wait = { atMs: this.nowMs + SHARED_WAIT_MS, stamp: this.stamp(), cause: 'no-workers' };
    return undefined;
  }

  /** /health's `balancer`. */
  protected balancerHealth(): Record<string, unknown> {
    const [idle, running] = [this.count('idle'), this.count('running')];
    return {
      requests: { pending: this.queue.length + this.pinned.length, inFlight: this.inProgress() },
      workers: { healthy: idle + running, initializing: this.count('initializing'), unhealthy: this.count('unhealthy') },
      failed: { ...this.balancerFailed },
    };
  }

  /** A request's wait ran out (2 min shared, 5 min pinned) or its worker stopped. */
  protected waitOver(j: RefJob): void {
    const cause = j.lb!.wait!.cause;
    j.lb!.wait = undefined;
    this.queue = this.queue.filter((q) => q !== j);
    this.unpin(j);
    this.fail(j, cause);
  }

  protected feedPinned(w: Worker): void {
    for (let j = this.pinnedTo(w); j !== undefined && this.hasRoom(w); j = this.pinnedTo(w)) {
      this.unpin(j);
      this.take(w, j);
    }
  }

  protected workerStopped(w: Worker): void {
    for (let j = this.pinnedTo(w); j !== undefined; j = this.pinnedTo(w)) {
      this.unpin(j);
      j.lb!.wait = { atMs: this.nowMs, stamp: this.stamp(), cause: 'worker-gone' };
    }
  }

  protected override start(w: Worker, j: RefJob): void {
    if (j.lb) j.lb.wait = undefined;
    super.start(w, j);
  }

  /** A worker a request left serves the requests waiting for it alone first. */
  protected override reuse(w: Worker | undefined): void {
    const p = w && this.pinnedTo(w);
    if (p === undefined) return super.reuse(w);
    this.unpin(p);
    this.start(w!, p);
  }

  protected override runEnded(j: RefJob, outcome: 'complete' | 'timeout' | 'crash'): void {
    if (j.lb && outcome === 'timeout') return this.fail(j, 'timeout');
    super.runEnded(j, outcome);
  }

  /** No retries: the crashed worker's requests fail, the crashing one first; it restarts cold. */
  protected override crash(j: RefJob): void {
    if (!j.lb) return super.crash(j);
    const w = this.workerOf(j)!;
    const lost = [j, ...w.jobs.filter((o) => o !== j)];
    w.jobs = [];
    for (const k of lost) {
      k.run = undefined;
      // Off its worker: its end has no run to stop.
      k.status = 'FAILED';
    }
    this.boot(w);
    for (const k of lost) this.fail(k, 'dropped');
    this.changed();
  }

  protected override finish(j: RefJob, status: RefStatus, output: unknown, error: string | undefined): void {
    if (!j.lb) return super.finish(j, status, output, error);
    const w = this.stopRun(j);
    j.status = status;
    if (j.startedAtMs !== undefined) j.executionTimeMs = this.nowMs - j.startedAtMs;
    j.output = output;
    j.error = error;
    if (status === 'COMPLETED') this.counters.completed++;
    else this.counters.failed++;
    // Answered, then gone.
    j.gone = true;
    this.late.push({ req: j.lb.req, atMs: this.nowMs, ...this.answerOf(j) });
    this.reuse(w);
    this.changed();
  }

  private fail(j: RefJob, cause: BalancerCause): void {
    this.balancerFailed[cause]++;
    j.lb!.cause = cause;
    if (cause === 'timeout') this.finish(j, 'TIMED_OUT', undefined, `request timed out after ${j.executionTimeoutMs} ms`);
    else this.finish(j, 'FAILED', undefined, BALANCER_ANSWERS[cause].error);
  }

  /** The answer to an ended request: the balancer's, else the worker's (its echo, `/ping`'s body, or a 500 naming its failure). */
  private answerOf(j: RefJob): RefAnswer {
    const worker = j.worker === undefined ? {} : { worker: workerName(j.worker) };
    const cause = j.lb!.cause;
    if (cause !== undefined) return { status: BALANCER_ANSWERS[cause].status, body: { answer: { error: j.error }, ...worker } };
    if (j.status !== 'COMPLETED') return { status: 500, body: { answer: { error: j.error }, ...worker } };
    return { status: 200, body: { answer: j.lb!.ping ? { status: 'healthy' } : j.output, ...worker } };
  }

  /** `w`, ready with room, takes `j`. */
  private take(w: Worker, j: RefJob): void {
    this.idle = this.idle.filter((x) => x !== w);
    this.start(w, j);
  }

  private hasRoom(w: Worker): boolean {
    return w.state === 'idle' || (w.state === 'running' && w.jobs.length < this.cfg.workerConcurrency);
  }

  /** Can stopped worker `n` start again? It existed, is not there now, and workersMax leaves room. */
  private canResume(n: number): boolean {
    return n >= 1 && n < this.nextWorker && this.workers.length < this.cfg.workersMax && !this.workers.some((w) => w.n === n);
  }

  private pinnedTo(w: Worker): RefJob | undefined {
    return this.pinned.find((j) => j.lb!.pinnedTo === w.n);
  }

  private unpin(j: RefJob): void {
    this.pinned = this.pinned.filter((x) => x !== j);
    j.lb!.pinnedTo = -1;
  }
}
