/**
 * Lockstep: the runner drives a `serve --clock manual` instance in virtual time, so the job
 * outcomes equal an in-process run of the same scenario and seed.
 *
 * - Client timers (arrivals, polls, back-offs, cancels, client timeouts) are mirrored as markers
 *   in the server's event queue (lockstep-timers.ts): a timer and a simulator event on one ms run
 *   in the in-process order, and a timer runs when the server reports its marker fired.
 * - The server's clock only moves when the runner advances it, to the runner's next timer;
 *   `until: "answer"` stops the advance right after the first answer, webhook attempt or marker,
 *   so the runner reacts at the virtual ms it happened.
 * - Requests go out one at a time, in the order the in-process target would handle them; before
 *   the next one (or an advance) this one was answered, or the server holds it (received, no
 *   answer on its way: `GET /_sim/clock` counts). A held request gets its client timeout as a
 *   marker right then — where in-process sets its timeout timer, right after the API took it.
 */
import { Pool } from 'undici';
import { HttpExchange } from '../http/http-exchange.js';
import { splitBase } from '../http/http-target.js';
import { LockstepAdmin, type Counts, type Occupancy } from './admin.js';
import { averagesOf } from '../../../lib/time-averages.js';
import { endpointWindows, engineWindows, gpuWindows } from '../../record/endpoint-series.js';
import { MirroredTimers, type TimerSpec } from './timers.js';
import { notAtStart } from './fresh-server.js';
import { LockstepError, UsageError } from '../../usage-error.js';
import type { EndpointProbe, EndpointWatcher, Target, TargetRequest, TargetResponse } from '../target.js';
import { displayUrl } from '../target-url.js';
import type { RandomStream } from '../../../lib/random.js';
import type { DeliveryListener, ReceiverConfig, WebhookRefusals } from '../webhook-receiver.js';
import { receiveOnClock, type HttpWebhookReceiver } from '../http/webhook-receiver.js';
import { WORKER_ID_HEADER } from '../../../contract/worker-id-header.js';

/** A request to send, or a timer whose marker is to be queued at the server. */
type Outgoing = { req: TargetRequest; x: HttpExchange } | TimerSpec;

/** A wait for the server that takes longer than this (wall ms) is a broken lockstep. */
const STALL_MS = 30_000;
/** Head start of an answer before the server's request counts are read (wall ms). */
const ANSWER_GRACE_MS = 2;

export class LockstepTarget implements Target {
  readonly kind = 'lockstep' as const;
  readonly clock = 'virtual' as const;
  readonly reportUrl: string;
  readonly causesReported = true;
  webhookUrl: string | undefined = undefined;
  private receiver: HttpWebhookReceiver | undefined = undefined;
  readonly endpointId: string;
  private readonly pool: Pool;
  private readonly admin: LockstepAdmin;
  private readonly prefix: string;
  private readonly lbPrefix: string;
  private readonly headers: Record<string, string>;
  private readonly timers = new MirroredTimers();
  private readonly queue: Outgoing[] = [];
  private nowMs = 0;
  /** Server counts when the run started, and latest read. */
  private base: Counts = { now: 0, received: 0, ended: 0, markers: 0 };
  private counts: Counts = { now: 0, received: 0, ended: 0, markers: 0 };
  /** Counts may be stale: something was sent, answered or abandoned since they were read. */
  private dirty = true;
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
  private closed = false;
  /** Advances made (progress, tests). */
  advances = 0;

  /** `opts.webhooks`: the webhook receiver, already listening (default: one on 127.0.0.1, a free port); closed with the target. */
  constructor(
    readonly url: string,
    opts: { apiKey: string; endpointId: string; webhooks?: HttpWebhookReceiver },
  ) {
    const { origin, prefix } = splitBase(url);
    // A load-balancing endpoint's requests (TargetRequest.balancer): under serve's `/lb/{id}`, beside its `/v2`.
    this.lbPrefix = `${prefix.slice(0, -3)}/lb/${opts.endpointId}`;
    this.headers = { authorization: `Bearer ${opts.apiKey}`, 'content-type': 'application/json' };
    // No cap on sockets: every held request (runsync, stream) keeps one, as many as the scenario
    // holds. No wall-clock timeouts either: a hold lasts virtual time, however long in wall time.
    this.pool = new Pool(origin, { connections: null, pipelining: 1, keepAliveTimeout: 60_000, headersTimeout: 0, bodyTimeout: 0 });
    this.admin = new LockstepAdmin(origin, this.headers);
    this.prefix = `${prefix}/${opts.endpointId}`;
    this.endpointId = opts.endpointId;
    this.reportUrl = displayUrl(url);
    this.receiver = opts.webhooks;
  }

  async receiveWebhooks(cfg: ReceiverConfig, rng: RandomStream, onDelivery: DeliveryListener): Promise<void> {
    this.receiver = await receiveOnClock(this, this.receiver, cfg, rng, onDelivery);
    this.webhookUrl = this.receiver.url;
  }

  webhookRefusals(): WebhookRefusals | undefined {
    return this.webhookUrl === undefined ? undefined : { refused: this.receiver!.refused, malformed: this.receiver!.malformed };
  }

  now(): number {
    return this.nowMs;
  }

  /** A client timer: its marker goes to the server in order with the requests (see flush). */
  at(atMs: number, fn: () => void): void {
    this.queue.push({ atMs, fn });
  }

  send(req: TargetRequest, done: (res: TargetResponse) => void): void {
    const x = new HttpExchange(
      this.nowMs + req.timeoutMs,
      (ex, r) => this.finish(ex, r, done),
      () => this.nowMs,
    );
    this.queue.push({ req, x });
  }

  probe(): EndpointProbe | undefined {
    return undefined;
  }

  /** Asked for: the server's occupancy is read when the drive ends (watchEndpoint). */
  private watching = false;
  private occupancy: Occupancy | undefined;

  /**
   * The server integrates the endpoint's state exactly on its clock (`POST /_sim/occupancy`), as
   * in process; it is read once, when the drive ends.
   */
  watchEndpoint(windowMs: number): EndpointWatcher {
    this.watching = true;
    return {
      windows: (endMs, n) => {
        const o = this.occupancy;
        if (!o) return undefined;
        return endpointWindows(
          'simulator',
          averagesOf(o.areas, windowMs, endMs, n, o.windowMs),
          o.engine && engineWindows(o.engine, windowMs, endMs, n),
          o.gpus && gpuWindows(o.gpus, windowMs, endMs, n, o.windowMs),
        );
      },
    };
  }

  async drive(stop: () => boolean, hardEndMs: number, tick: () => void): Promise<void> {
    this.base = this.counts = await this.admin.clock();
    const why = notAtStart(this.base);
    if (why) throw new UsageError(why);
    this.timers.start(this.base.markers);
    this.dirty = false;
    /** At the hard end: the last advance there released nothing (every event of that ms ran). */
    let quietAtEnd = false;
    for (;;) {
      if (this.queue.length > 0) {
        await this.flush();
        continue;
      }
      if (this.dirty) await this.read();
      const inTransit = this.inTransit();
      if (inTransit !== 0) {
        // > 0: answers on their way here; < 0: an abandoned request the server has not seen close yet.
        await this.wake(inTransit > 0 ? STALL_MS : 1, inTransit > 0);
        this.dirty = true;
        continue;
      }
      // One timer at a time, each with its requests (and theirs) settled, as in-process.
      if (this.timers.runDue()) continue;
      if (stop() || (this.nowMs >= hardEndMs && quietAtEnd)) break;
      const next = Math.min(this.timers.peekMs() ?? Infinity, hardEndMs);
      const before = this.counts;
      this.advancing = true;
      try {
        this.counts = await this.admin.advance(Math.max(0, next - this.nowMs));
      } finally {
        this.advancing = false;
      }
      this.nowMs = this.counts.now - this.base.now;
      this.timers.fired(this.counts.markers);
      quietAtEnd = this.nowMs >= hardEndMs && this.counts.ended === before.ended && this.counts.markers === before.markers;
      for (const f of this.deferred.splice(0)) f();
      if (++this.advances % 256 === 0) tick();
    }
    if (this.watching) this.occupancy = await this.admin.occupancy(this.endpointId);
  }

  /** Server answers not read here yet (negative: abandoned requests the server has not seen close). */
  private inTransit(): number {
    return this.counts.ended - this.base.ended - this.ended;
  }

  private async read(): Promise<void> {
    this.counts = await this.admin.clock();
    this.timers.fired(this.counts.markers);
    this.dirty = false;
  }

  /**
   * Sends what is queued, in order: timers' markers in batches, requests one by one. Before the
   * next goes, this one was answered, or the server holds it (it was received and no answer is on
   * its way); a held request's client timeout then joins the front of the queue.
   */
  private async flush(): Promise<void> {
    while (this.queue.length > 0) {
      if (!('req' in this.queue[0]!)) {
        const batch: TimerSpec[] = [];
        while (this.queue.length > 0 && !('req' in this.queue[0]!)) batch.push(this.queue.shift() as TimerSpec);
        const at = this.timers.place(batch, this.nowMs);
        this.counts = await this.admin.mark(at.map((t) => t + this.base.now));
        this.timers.fired(this.counts.markers);
        continue;
      }
      // A timed-out request is closed at the server before anything else is sent (in-process aborts it at once).
      while (this.inTransit() < 0) {
        await this.wake(1, false);
        await this.read();
      }
      const { req, x } = this.queue.shift() as Extract<Outgoing, { req: TargetRequest }>;
      const n = ++this.sent;
      this.dirty = true;
      const qs = req.query ? `?${new URLSearchParams(req.query).toString()}` : '';
      this.pool.dispatch(
        {
          method: req.method,
          path: (req.balancer ? this.lbPrefix : this.prefix) + req.path + qs,
          headers: req.workerAffinity === undefined ? this.headers : { ...this.headers, [WORKER_ID_HEADER]: req.workerAffinity },
          body: req.body === undefined ? null : JSON.stringify(req.body),
        },
        x,
      );
      await this.wake(ANSWER_GRACE_MS, false);
      const t0 = performance.now();
      while (!x.finished) {
        if (performance.now() - t0 > STALL_MS)
          throw new LockstepError(
            `lockstep: no sign of request ${n} (${req.method} ${req.path}) at the server (it counts ${this.counts.received - this.base.received} received, ${this.counts.ended - this.base.ended} ended; ${this.ended} ended here)`,
          );
        await this.read();
        if (this.counts.received - this.base.received >= n && this.inTransit() === 0) {
          // Held: in-process sets the client timeout right after the API took the request.
          this.queue.unshift({ atMs: x.deadlineMs, fn: () => x.finished || x.timeOut() });
          break;
        }
        if (this.inTransit() > 0) await this.wake(STALL_MS, true);
      }
      this.dirty = true;
    }
  }

  /** An answer, a transport error or the client timeout (`x.timeOut()`, a timer): the first one counts. */
  private finish(x: HttpExchange, r: TargetResponse, done: (res: TargetResponse) => void): void {
    if (x.finished || this.closed) return;
    if (this.advancing) return void this.deferred.push(() => this.finish(x, r, done));
    x.finished = true;
    this.ended++;
    this.dirty = true;
    // Requests and timers set from this answer go first, as they would in-process (depth first).
    const before = this.queue.length;
    done(r);
    if (this.queue.length > before) this.queue.unshift(...this.queue.splice(before));
    this.notify?.();
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

  async close(): Promise<void> {
    // Requests still held at the end stay unanswered, as in-process (not transport errors).
    this.closed = true;
    await Promise.all([this.pool.destroy(), this.admin.close(), this.receiver?.close()]);
  }
}

/** The lockstep target for `loadlab run --target URL --lockstep` (a `serve --clock manual`). */
export function lockstepTargetFor(
  sc: { endpoint: { id: string } },
  a: { target?: string; 'api-key'?: string; endpoint?: string; webhooks?: HttpWebhookReceiver },
): () => LockstepTarget {
  const url = a.target!;
  const apiKey = lockstepApiKey(a);
  return () => new LockstepTarget(url, { apiKey, endpointId: a.endpoint ?? sc.endpoint.id, ...(a.webhooks ? { webhooks: a.webhooks } : {}) });
}

/** The key a lockstep run sends: `--api-key`, else RUNPOD_API_KEY, else any (a serve without keys takes any). */
export function lockstepApiKey(a: { 'api-key'?: string }): string {
  return a['api-key'] ?? process.env.RUNPOD_API_KEY ?? 'loadlab';
}
