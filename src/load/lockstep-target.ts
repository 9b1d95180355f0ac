/**
 * Lockstep: the runner drives a `serve --clock manual` instance in virtual time. Client events
 * (arrivals, polls, back-offs, timeouts) live on a local scheduler; the server's clock only moves
 * when the runner advances it, to the runner's own next event time (`until: "answer"` stops the
 * advance early at the first answer or webhook, so the runner reacts at the virtual ms it
 * happened). Before any advance the runner waits until the server has handled every request it
 * sent — a held request (runsync, stream) has no answer to wait for, so its arrival is confirmed
 * through the request counts of `GET /_sim/clock` — and until every answer the server wrote has
 * been read. Requests are sent one at a time, so the server handles them in the runner's order.
 * Client timers are mirrored as markers in the server's event queue, so a timer and a simulator
 * event on the same ms run in the in-process order. The job outcomes then equal an in-process
 * run of the same scenario and seed.
 */
import { Pool } from 'undici';
import { Scheduler } from '../sim/scheduler.js';
import { parseSse, splitBase } from './http-target.js';
import type { EndpointProbe, Target, TargetRequest, TargetResponse } from './target.js';

interface Counts {
  now: number;
  received: number;
  ended: number;
  /** Client markers fired (see `at`). */
  markers: number;
}

/** A request to send, or (`mark`) the time of a client timer to queue at the server. */
type Outgoing = { req: TargetRequest; done: (res: TargetResponse) => void; answered: boolean; mark?: undefined } | { mark: number };

/** A wait for the server that takes longer than this (wall ms) is a broken lockstep. */
const STALL_MS = 30_000;
/** Head start of an answer before the server's request counts are read (wall ms). */
const ANSWER_GRACE_MS = 2;

export class LockstepTarget implements Target {
  readonly kind = 'lockstep' as const;
  readonly causesReported = true;
  webhookUrl: string | undefined = undefined;
  readonly endpointId: string;
  private readonly pool: Pool;
  private readonly admin: Pool;
  private readonly prefix: string;
  private readonly headers: Record<string, string>;
  /** Client timers, each mirrored by a marker in the server's event queue. */
  private readonly sched = new Scheduler();
  /** Client timeouts: not mirrored (they run after the simulator's events of their ms). */
  private readonly timeouts = new Scheduler();
  /** Markers the server fired whose client timer has not run yet. */
  private markersDue = 0;
  private seenMarkers = 0;
  private nowMs = 0;
  private base: Counts = { now: 0, received: 0, ended: 0, markers: 0 };
  private counts: Counts = { now: 0, received: 0, ended: 0, markers: 0 };
  /** Counts may be stale: something was sent or answered since they were read. */
  private dirty = true;
  private readonly queue: Outgoing[] = [];
  private sent = 0;
  /** Answers read plus requests this side abandoned (client timeout). */
  private ended = 0;
  private notify: (() => void) | undefined;
  /**
   * Answers that arrive while an advance is out are handled once it returns: only then is the
   * virtual time they were released at known here.
   */
  private advancing = false;
  private readonly deferred: (() => void)[] = [];
  /** Local events processed and advances made (progress, tests). */
  advances = 0;

  constructor(readonly url: string, opts: { apiKey: string; endpointId: string; connections?: number | null }) {
    const { origin, prefix } = splitBase(url);
    // No cap on sockets: every held request (runsync, stream) keeps one, as many as the scenario holds.
    this.pool = new Pool(origin, { connections: opts.connections ?? null, pipelining: 1, keepAliveTimeout: 60_000 });
    this.admin = new Pool(origin, { connections: 2, pipelining: 1 });
    this.prefix = `${prefix}/${opts.endpointId}`;
    this.endpointId = opts.endpointId;
    this.headers = { authorization: `Bearer ${opts.apiKey}`, 'content-type': 'application/json' };
  }

  now(): number {
    return this.nowMs;
  }

  /**
   * A client timer. Its marker is queued at the server (`POST /_sim/mark`) in order with the
   * requests, so it takes the same turn among simulator events at its ms as in-process; the
   * timer runs when the server reports its marker fired.
   */
  at(atMs: number, fn: () => void): void {
    this.sched.at(atMs, fn);
    this.queue.push({ mark: Math.floor(atMs) });
  }

  send(req: TargetRequest, done: (res: TargetResponse) => void): void {
    this.queue.push({ req, done, answered: false });
  }

  probe(): EndpointProbe | undefined {
    return undefined;
  }

  async drive(stop: () => boolean, hardEndMs: number, tick: () => void): Promise<void> {
    this.base = this.counts = await this.clock();
    this.seenMarkers = this.base.markers;
    this.dirty = false;
    for (;;) {
      if (this.queue.length > 0) {
        await this.flush();
        continue;
      }
      if (this.dirty) {
        this.counts = await this.clock();
        this.noteMarkers();
        this.dirty = false;
      }
      const inTransit = this.counts.ended - this.base.ended - this.ended;
      if (inTransit !== 0) {
        // > 0: answers on their way here; < 0: an abandoned request the server has not seen close yet.
        await this.wake(inTransit > 0 ? STALL_MS : 1, inTransit > 0);
        this.dirty = true;
        continue;
      }
      // One local event at a time, each with its requests (and theirs) settled, as in-process.
      if (this.markersDue > 0) {
        this.markersDue--;
        this.sched.step();
        continue;
      }
      if ((this.timeouts.peekMs() ?? Infinity) <= this.nowMs) {
        this.timeouts.step();
        continue;
      }
      if (stop() || this.nowMs >= hardEndMs) break;
      const next = Math.min(this.sched.peekMs() ?? Infinity, this.timeouts.peekMs() ?? Infinity, hardEndMs);
      this.advancing = true;
      try {
        this.counts = await this.post('/_sim/advance', { ms: Math.max(0, next - this.nowMs), until: 'answer' });
      } finally {
        this.advancing = false;
      }
      this.nowMs = this.counts.now - this.base.now;
      this.noteMarkers();
      for (const f of this.deferred.splice(0)) f();
      if (++this.advances % 256 === 0) tick();
    }
  }

  /**
   * Sends queued requests one by one. Before the next goes, this one was answered, or the server
   * holds it (it was received and no answer is on its way).
   */
  private async flush(): Promise<void> {
    while (this.queue.length > 0) {
      if (this.queue[0]!.mark !== undefined) {
        // Markers up to the next request go in one call (answered at once: they are in place).
        const at: number[] = [];
        while (this.queue.length > 0 && this.queue[0]!.mark !== undefined) at.push((this.queue.shift() as { mark: number }).mark);
        this.counts = await this.post('/_sim/mark', { atMs: at.map((t) => t + this.base.now) });
        this.noteMarkers();
        continue;
      }
      const o = this.queue.shift() as Exclude<Outgoing, { mark: number }>;
      const n = ++this.sent;
      this.dirty = true;
      this.dispatch(o);
      await this.wake(ANSWER_GRACE_MS, false);
      const t0 = performance.now();
      while (!o.answered) {
        if (performance.now() - t0 > STALL_MS) throw new Error(`lockstep: no sign of request ${n} (${o.req.method} ${o.req.path}) at the server (it counts ${this.counts.received - this.base.received} received, ${this.counts.ended - this.base.ended} ended; ${this.ended} ended here)`);
        this.counts = await this.clock();
        this.noteMarkers();
        const inTransit = this.counts.ended - this.base.ended - this.ended;
        if (this.counts.received - this.base.received >= n && inTransit === 0) break;
        if (inTransit > 0) await this.wake(STALL_MS, true);
      }
      this.dirty = true;
    }
  }

  /** Markers fired since last seen: that many client timers are due. */
  private noteMarkers(): void {
    this.markersDue += this.counts.markers - this.seenMarkers;
    this.seenMarkers = this.counts.markers;
  }

  private dispatch(o: Exclude<Outgoing, { mark: number }>): void {
    const { req } = o;
    const qs = req.query ? `?${new URLSearchParams(req.query).toString()}` : '';
    const ac = new AbortController();
    let over = false;
    const finish = (r: TargetResponse, abandoned = false): void => {
      if (over) return;
      if (this.advancing) return void this.deferred.push(() => finish(r, abandoned));
      over = true;
      o.answered = true;
      this.ended++;
      this.dirty = true;
      if (!abandoned) this.timeouts.cancel(timer);
      // Requests sent from this answer go first, as they would in-process (depth first).
      const before = this.queue.length;
      o.done(r);
      if (this.queue.length > before) this.queue.unshift(...this.queue.splice(before));
      this.notify?.();
    };
    // The client timeout is virtual, like the in-process target's.
    const timer = this.timeouts.at(this.nowMs + req.timeoutMs, () => {
      finish({ status: 0, timedOut: true }, true);
      ac.abort();
    });
    this.pool
      .request({ method: req.method, path: this.prefix + req.path + qs, headers: this.headers, body: req.body === undefined ? undefined : JSON.stringify(req.body), signal: ac.signal })
      .then(async (res) => {
        const text = await res.body.text();
        if (String(res.headers['content-type'] ?? '').includes('text/event-stream')) return finish({ status: res.statusCode, sse: parseSse(text) });
        let body: unknown;
        try {
          body = text ? JSON.parse(text) : undefined;
        } catch {
          body = text;
        }
        finish({ status: res.statusCode, body });
      })
      .catch((e: Error) => finish({ status: 0, error: e.message }));
  }

  /** Resolves at the next answer or after `ms` of wall time; `strict`: the timeout is a stall. */
  private wake(ms: number, strict: boolean): Promise<void> {
    return new Promise((resolve, reject) => {
      const t = setTimeout(() => {
        this.notify = undefined;
        if (strict) reject(new Error('lockstep: an answer the server wrote never arrived'));
        else resolve();
      }, ms);
      this.notify = () => {
        clearTimeout(t);
        this.notify = undefined;
        resolve();
      };
    });
  }

  private clock(): Promise<Counts> {
    return this.call('GET', '/_sim/clock');
  }

  private post(path: string, body: unknown): Promise<Counts> {
    return this.call('POST', path, body);
  }

  private async call(method: 'GET' | 'POST', path: string, body?: unknown): Promise<Counts> {
    const res = await this.admin.request({ method, path, headers: this.headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const j = (await res.body.json()) as Partial<Counts> & { error?: string };
    if (res.statusCode !== 200) throw new Error(`lockstep: ${method} ${path} answered ${res.statusCode}${res.statusCode === 409 ? ' (the server\'s clock is not manual: start it with --clock manual)' : ''}: ${j.error ?? ''}`);
    if (typeof j.received !== 'number' || typeof j.ended !== 'number' || typeof j.markers !== 'number') throw new Error('lockstep: the server does not report request counts (a loadlab serve with --clock manual is needed)');
    return j as Counts;
  }

  async close(): Promise<void> {
    await Promise.all([this.pool.destroy(), this.admin.destroy()]);
  }
}

/** The lockstep target for `loadlab run --target URL --lockstep` (a `serve --clock manual`). */
export function lockstepTargetFor(sc: { endpoint: { id: string } }, a: { target?: string; 'api-key'?: string; endpoint?: string }): () => LockstepTarget {
  const url = a.target!;
  const apiKey = a['api-key'] ?? process.env.RUNPOD_API_KEY ?? 'loadlab';
  return () => new LockstepTarget(url, { apiKey, endpointId: a.endpoint ?? sc.endpoint.id });
}
