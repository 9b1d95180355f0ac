/**
 * The request layer every behaviour uses: an optional cap on requests in flight (requests wait
 * in FIFO order and are dropped past `maxWaitMs`), back-off with jitter on 429, client timeouts,
 * and recording of intended vs actual send time (no coordinated omission), answer and 429 cause.
 */
import type { LimitCauseName } from '../report/run-result.js';
import type { Operation } from '../sim/config.js';
import { Deque } from '../sim/deque.js';
import type { RandomStream } from '../sim/random.js';
import { backoffMs, type BackoffSpec } from './backoff.js';
import { inferCause, reportedCause, type LimitView } from './cause-inference.js';
import type { Recorder } from './recorder.js';
import type { SendRates } from './send-rate.js';
import type { Target, TargetRequest, TargetResponse } from './target.js';

export interface On429 extends BackoffSpec {
  /** Tries in all, the first included (1 = no re-send). */
  maxAttempts: number;
}

export interface CallOptions {
  on429: On429;
  rng: RandomStream;
  arrival?: boolean;
}

export interface OpenModel {
  /** Most requests in flight at once; unlimited when undefined. */
  maxInFlight: number | undefined;
  /** A request that waited this long for a slot is dropped. */
  maxWaitMs: number;
}

/** A session: answers that come after it ended are not handed on. */
interface Live {
  readonly done: boolean;
}

/** `status 0, dropped`: the in-flight cap never let it out. */
export type ClientResponse = TargetResponse & { dropped?: boolean };

const JOB_CREATING = new Set<Operation>(['run', 'runsync', 'openai']);

export class Client {
  private readonly waiting = new Deque<() => void>();
  /** Queue depth from the latest /health answer (cause inference against real deployments). */
  lastQueueDepth: number | undefined;

  constructor(
    private readonly target: Target,
    private readonly rec: Recorder,
    private readonly model: OpenModel,
    private readonly limits: Record<Operation, LimitView>,
    private readonly queueThrottleAt: number,
    /** Requests sent per operation over the rate limiter's window (headroom, cause inference). */
    private readonly rates: SendRates,
  ) {}

  /** `arrival`: the first request of a session; it counts as the arrival (late, dropped). */
  call(req: TargetRequest & { bodyBytes?: number }, o: CallOptions, arrival: boolean, cb: (r: ClientResponse) => void, session?: Live): void {
    // Per-flow options objects are shared; only an arrival needs its own (no copy per request).
    this.attempt(req, arrival ? (o.arrival ? o : this.arrivalOpts(o)) : o, cb, 1, this.target.now(), session);
  }

  private readonly arrivalVariant = new WeakMap<CallOptions, CallOptions>();

  private arrivalOpts(o: CallOptions): CallOptions {
    let a = this.arrivalVariant.get(o);
    if (!a) this.arrivalVariant.set(o, (a = { ...o, arrival: true }));
    return a;
  }

  private attempt(req: TargetRequest, o: CallOptions, cb: (r: ClientResponse) => void, n: number, intendedMs: number, s: Live | undefined): void {
    const cap = this.model.maxInFlight;
    if (cap !== undefined && this.rec.inFlight >= cap) {
      this.waiting.push(() => this.release(req, o, cb, n, intendedMs, s));
      return;
    }
    this.send(req, o, cb, n, intendedMs, s);
  }

  /** A waiting request gets a slot: sent, or dropped when it waited too long. */
  private release(req: TargetRequest, o: CallOptions, cb: (r: ClientResponse) => void, n: number, intendedMs: number, s: Live | undefined): void {
    const now = this.target.now();
    if (now - intendedMs > this.model.maxWaitMs) {
      if (o.arrival && n === 1) this.rec.dropped(now);
      if (!s?.done) cb({ status: 0, dropped: true });
      this.pump();
      return;
    }
    this.send(req, o, cb, n, intendedMs, s);
  }

  private pump(): void {
    const cap = this.model.maxInFlight;
    while (cap !== undefined && this.rec.inFlight < cap && this.waiting.length > 0) this.waiting.shift()!();
  }

  private send(req: TargetRequest, o: CallOptions, cb: (r: ClientResponse) => void, n: number, intendedMs: number, s: Live | undefined): void {
    const t = this.target;
    const sentMs = t.now();
    const rec = this.rec;
    rec.sent(req.op, intendedMs, sentMs);
    this.rates.of(req.op).add(sentMs);
    if (o.arrival && n === 1) rec.arrivalSent(sentMs, sentMs - intendedMs);
    const inFlightAtSend = rec.ops.get(req.op)!.inFlight;
    t.send(req, (res) => {
      const endMs = t.now();
      const cause = res.status === 429 ? this.cause(req.op, res, inFlightAtSend, endMs) : undefined;
      rec.answered(req.op, intendedMs, sentMs, endMs, res, cause);
      this.pump();
      if (res.status === 429 && n < o.on429.maxAttempts) {
        rec.retried429(req.op);
        const at = endMs + backoffMs(o.on429, n, o.rng);
        t.at(at, () => this.attempt(req, o, cb, n + 1, at, s));
        return;
      }
      if (!s?.done) cb(res);
    });
  }

  private cause(op: Operation, res: TargetResponse, inFlightAtSend: number, atMs: number): LimitCauseName {
    if (this.target.causesReported) return reportedCause(res) ?? 'unknown';
    return inferCause(this.limits[op], {
      inFlightAtSend, recentSent: this.rates.of(op).inWindow(atMs), lastQueueDepth: this.lastQueueDepth,
      queueThrottleAt: this.queueThrottleAt, jobCreating: JOB_CREATING.has(op),
    });
  }
}
