/**
 * A deliberately plain reference model of one endpoint: the job lifecycle, retention, ttl, cancel,
 * retry, purge, limits and `/health`, the workers (each holding up to workerConcurrency jobs) and
 * the scaler, the token model and the batching engine. Every job stays in one array; on every step
 * every deadline of every job, held request, worker and engine is looked at again. No sweeps,
 * lanes, wheels, segments or compaction: speed is irrelevant here, being obviously right is the
 * point. The differential test holds the fast core to it.
 *
 * Events of one instant run in the order they were set (docs/endpoint.md: `(atMs, insertion)`): each
 * deadline, run end, cold start, engine wake-up and scaler look-again carries the model's counter at
 * the moment it was set. The scaler's look-again is set when the scaler last looked. Idle timeouts and
 * REQUEST_COUNT's decisions come at the end of the millisecond, after every event of it; the
 * millisecond the clock was advanced to ends only at the next advance (requests still come in it).
 *
 * The concepts live in layers of one class: state (model-state.ts), workers and the scaler
 * (model-workers.ts; GPU types and their hosts' room: model-hosts.ts), held requests and streams (model-holds.ts), the job lifecycle and the token
 * model (model-jobs.ts), the engine (engine.ts), a load-balancing endpoint's balancer
 * (model-balancer.ts); here, requests and the passing of time.
 */
import { err, LIMIT_CODES, NOT_FOUND, openaiErr } from './answers.js';
import { isEnded, jobId, refBody, type RefJob } from './job.js';
import { RefBalancer } from './model-balancer.js';
import type { Worker } from './model-state.js';
import type { RefAnswer, RefConfig, RefRequest } from './types.js';

export type { RefAnswer, RefChat, RefConfig, RefDist, RefEngineConfig, RefJobBody, RefLateAnswer, RefRequest } from './types.js';

export class RefModel extends RefBalancer {
  constructor(cfg: RefConfig) {
    super(cfg);
    this.look();
  }

  /** Answers a request at the current time; undefined while it is held (see `late`). */
  request(r: RefRequest, req: number): RefAnswer | undefined {
    // A load-balancing endpoint's requests have no limits.
    if (r.op === 'lb') return this.lbRequest(r, req);
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
      this.holds.push({ req, op: 'openai', job: j, untilMs: this.nowMs + j.executionTimeoutMs + 1, stamp: this.stamp(), chat: { body: r.body, sentAt: [] } });
      // A stream follows the tokens of a job already running (the others' from their start).
      if (r.body.stream && j.status === 'IN_PROGRESS') this.workerOf(j)!.engine?.watch(j);
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
    const workers = { idle, initializing, ready: idle + running, running, throttled: this.count('throttled'), unhealthy: this.count('unhealthy') };
    return {
      jobs: { ...this.counters, inProgress: this.inProgress(), inQueue: this.queue.length },
      workers: this.cfg.gpus ? { ...workers, byGpu: this.byGpu() } : workers,
      ...(this.cfg.balancer ? { balancer: this.balancerHealth() } : {}),
    };
  }

  /** /health's workers.byGpu: each type's placed workers by state, in priority order (a waiting worker is on none). */
  private byGpu(): Record<string, Record<Worker['state'], number>> {
    const out: Record<string, Record<Worker['state'], number>> = {};
    this.types.forEach((g, t) => {
      const on = this.workers.filter((w) => w.gpu === t);
      const n = (s: Worker['state']) => on.filter((w) => w.state === s).length;
      out[g.name] = { idle: n('idle'), initializing: n('initializing'), running: n('running'), throttled: n('throttled'), unhealthy: n('unhealthy') };
    });
    return out;
  }

  /** Hard delete (ttl, retention, purge): gone even if running; its worker takes the next job. */
  protected remove(j: RefJob): void {
    this.queue = this.queue.filter((q) => q !== j);
    const w = this.stopRun(j);
    j.gone = true;
    this.answerHolds(j, NOT_FOUND);
    this.reuse(w);
  }

  /** The earliest pending event (time, then the order it was set in), with what it does. */
  private nextEvent(): { atMs: number; fire: () => void } | undefined {
    let best: { atMs: number; stamp: number; fire: () => void } | undefined;
    const consider = (atMs: number, stamp: number, fire: () => void) => {
      if (!best || atMs < best.atMs || (atMs === best.atMs && stamp < best.stamp)) best = { atMs, stamp, fire };
    };
    for (const j of this.jobs) {
      if (j.gone) continue;
      const { run, nextToken: t } = j;
      if (run) consider(run.atMs, run.stamp, () => this.runEnded(j, run.outcome));
      if (t) consider(t.atMs, t.stamp, () => this.tokenLanded(j, t.k));
      const wait = j.lb?.wait;
      if (wait) consider(wait.atMs, wait.stamp, () => this.waitOver(j));
      consider(j.deadlineMs, j.deadlineStamp, () => {
        const live = !isEnded(j.status);
        this.remove(j);
        // A result removed frees no worker and leaves the queue as it was: the scaler does not look.
        if (live) this.changed();
      });
    }
    for (const h of this.holds) consider(h.untilMs, h.stamp, () => this.waitEnded(h));
    for (const w of this.workers) this.workerEvents(w, consider);
    const r = this.recheck;
    if (r)
      consider(r.atMs, r.stamp, () => {
        this.recheck = undefined;
        this.look();
      });
    return best;
  }

  private workerEvents(w: Worker, consider: (atMs: number, stamp: number, fire: () => void) => void): void {
    const b = w.boot;
    if (b) consider(b.atMs, b.stamp, () => (b.timesOut ? this.unhealthy(w) : this.ready(w)));
    const e = w.engine;
    if (e?.wake) consider(e.wake.atMs, e.wake.stamp, () => e.fire());
    if (e?.tick) consider(e.tick.atMs, e.tick.stamp, () => e.ticked());
  }
}
