/**
 * The request layer every behaviour uses: an optional cap on requests in flight (requests wait
 * in FIFO order and are dropped past `maxWaitMs`), back-off with jitter on 429, client timeouts,
 * and recording of intended vs actual send time (no coordinated omission), answer and 429 cause.
 */
import type { LimitCauseName } from '../report/run-result.js';
import type { Operation } from '../contract/operations.js';
import { Deque } from '../lib/deque.js';
import type { RandomStream } from '../lib/random.js';
import { backoffMs, type BackoffSpec } from './behaviours/backoff.js';
import { inferCause, reportedCause, type LimitView } from './record/cause-inference.js';
import type { OpAcc, Recorder } from './record/recorder.js';
import type { SendRate, SendRates } from './record/send-rate.js';
import type { Target, TargetRequest, TargetResponse } from './targets/target.js';
import type { SessionSpan } from '../telemetry/session-tracing.js';
import { InternalError } from '../contract/loadlab-error.js';

export interface On429 extends BackoffSpec {
  /** Tries in all, the first included (1 = no re-send). */
  maxAttempts: number;
}

export interface CallOptions {
  on429: On429;
  rng: RandomStream;
}

export interface OpenModel {
  /** Most requests in flight at once; unlimited when undefined. */
  maxInFlight: number | undefined;
  /** A request that waited this long for a slot is dropped. */
  maxWaitMs: number;
}

/** A session: answers that come after it ended are not handed on. */
export interface Live {
  readonly done: boolean;
  /** When the session's arrival was due: its first request's send lag is measured from here. */
  readonly intendedMs: number;
  /** When its first request went out: set by the client at that send. */
  sentMs: number;
  /** The session's span when it is traced (and sampled): each answer adds a request span. */
  readonly trace?: SessionSpan | undefined;
}

/** `status 0, dropped`: the in-flight cap never let it out. */
export type ClientResponse = TargetResponse & { dropped?: boolean };

/**
 * Gets the answer of a call, and the exchange it went through: a caller that is its own exchange
 * (a poller: `extends Exchange`) can pass one shared function instead of a closure per request.
 */
export type AnswerCallback = (r: ClientResponse, x: Exchange) => void;

const JOB_CREATING = new Set<Operation>(['run', 'runsync', 'openai']);
const NONE = (): void => {};

/**
 * One request on its way: what the client needs again when the answer comes, and the one answer
 * callback handed to the target. A caller that has one request out at a time (a poller) keeps
 * one, or is one (a subclass), and passes it to every call, so a request allocates nothing in
 * the client; other calls get a fresh one.
 */
export class Exchange {
  req: TargetRequest | undefined = undefined;
  o: CallOptions | undefined = undefined;
  arrival = false;
  cb: AnswerCallback = NONE;
  s: Live | undefined = undefined;
  /** Attempt number (429 re-sends), from 1. */
  n = 1;
  intendedMs = 0;
  sentMs = 0;
  inFlightAtSend = 0;
  acc: OpAcc | undefined = undefined;
  /** The operation of the last request sent through this exchange, and its accumulators (`perOp`). */
  op: string | undefined = undefined;
  opAcc: { acc: OpAcc; rate: SendRate } | undefined = undefined;
  /** From `call` until the answer is handed on (or dropped). */
  busy = false;
  /** The target's `done` for this exchange: made once, whatever the number of requests. */
  readonly done: (res: TargetResponse) => void;

  constructor(client: Client) {
    this.done = (res) => client.answered(this, res);
  }
}

interface PerOp {
  acc: OpAcc;
  rate: SendRate;
}

export class Client {
  private readonly waiting = new Deque<Exchange>();
  /** Queue depth from the latest /health answer (cause inference against real deployments). */
  lastQueueDepth: number | undefined;
  /** Sees every answer first (the reachability guard of a run over the network); none in-process. */
  watch: ((res: TargetResponse) => void) | undefined = undefined;

  constructor(
    private readonly target: Target,
    private readonly rec: Recorder,
    private readonly model: OpenModel,
    private readonly limits: Record<Operation, LimitView>,
    private readonly queueThrottleAt: number,
    /** Requests sent per operation over the rate limiter's window (headroom, cause inference). */
    private readonly rates: SendRates,
  ) {}

  /**
   * Sends `req` (with 429 re-sends) and hands the answer to `cb` unless `session` ended by then.
   * `arrival`: the first request of a session; it counts as the arrival (late, dropped).
   * `x`: an exchange of the caller's to reuse; it must not be in flight.
   */
  call(req: TargetRequest & { bodyBytes?: number }, o: CallOptions, arrival: boolean, cb: AnswerCallback, session?: Live, x?: Exchange): void {
    const ex = x ?? new Exchange(this);
    if (ex.busy) throw new InternalError(`exchange reused while a ${ex.req?.op} request is in flight`);
    ex.busy = true;
    ex.req = req;
    ex.o = o;
    ex.arrival = arrival;
    ex.cb = cb;
    ex.s = session;
    ex.n = 1;
    // An arrival is late from its intended time (in wall time the event runs after it), not from now.
    ex.intendedMs = arrival && session ? session.intendedMs : this.target.now();
    this.attempt(ex);
  }

  private attempt(ex: Exchange): void {
    const cap = this.model.maxInFlight;
    if (cap !== undefined && this.rec.inFlight >= cap) {
      this.waiting.push(ex);
      return;
    }
    this.send(ex);
  }

  /** A waiting request gets a slot: sent, or dropped when it waited too long. */
  private release(ex: Exchange): void {
    const now = this.target.now();
    if (now - ex.intendedMs > this.model.maxWaitMs) {
      if (ex.arrival && ex.n === 1) this.rec.dropped(now);
      this.handOn(ex, { status: 0, dropped: true });
      this.pump();
      return;
    }
    this.send(ex);
  }

  private pump(): void {
    const cap = this.model.maxInFlight;
    while (cap !== undefined && this.rec.inFlight < cap && this.waiting.length > 0) this.release(this.waiting.shift()!);
  }

  /**
   * The recorder's and the send-rate accumulators of an operation. The last two operations are
   * remembered (a run-and-poll load alternates between `/run` and `/status`), others looked up.
   */
  private perOp(op: string): PerOp {
    if (op === this.prevOp) {
      const o = this.prev!;
      this.prevOp = this.lastOp;
      this.prev = this.last;
      this.lastOp = op;
      this.last = o;
      return o;
    }
    let o = this.ops.get(op);
    if (!o) this.ops.set(op, (o = { acc: this.rec.op(op), rate: this.rates.of(op) }));
    this.prevOp = this.lastOp;
    this.prev = this.last;
    this.lastOp = op;
    this.last = o;
    return o;
  }

  private readonly ops = new Map<string, PerOp>();
  private lastOp: string | undefined = undefined;
  private last: PerOp | undefined = undefined;
  private prevOp: string | undefined = undefined;
  private prev: PerOp | undefined = undefined;

  private send(ex: Exchange): void {
    const t = this.target;
    const sentMs = t.now();
    const rec = this.rec;
    const req = ex.req!;
    // A reused exchange (a poller's) mostly sends one operation: no Map lookup then.
    const op = ex.op === req.op ? ex.opAcc! : req.op === this.lastOp ? this.last! : this.perOp(req.op);
    ex.op = req.op;
    ex.opAcc = op;
    const acc = op.acc;
    rec.sentOp(acc, ex.intendedMs, sentMs);
    op.rate.add(sentMs);
    if (ex.arrival && ex.n === 1) {
      rec.arrivalSent(sentMs, sentMs - ex.intendedMs);
      if (ex.s !== undefined) ex.s.sentMs = sentMs;
    }
    ex.acc = acc;
    ex.sentMs = sentMs;
    ex.inFlightAtSend = acc.inFlight;
    t.send(req, ex.done);
  }

  /** The target answered `ex` (its `done`). */
  answered(ex: Exchange, res: TargetResponse): void {
    const t = this.target;
    const endMs = t.now();
    const status = res.status;
    const req = ex.req!;
    const acc = ex.acc!;
    this.watch?.(res);
    const cause = status === 429 ? this.cause(req.op, res, ex.inFlightAtSend, endMs) : undefined;
    this.rec.answeredOp(acc, ex.intendedMs, ex.sentMs, endMs, res, cause);
    const span = ex.s?.trace;
    if (span !== undefined) span.request(req, ex.sentMs, endMs, status, cause, res.body);
    if (this.waiting.length > 0) this.pump();
    const o = ex.o!;
    if (status === 429 && ex.n < o.on429.maxAttempts) {
      acc.retried429++;
      const at = endMs + backoffMs(o.on429, ex.n, o.rng);
      ex.n++;
      ex.intendedMs = at;
      t.at(at, () => this.attempt(ex));
      return;
    }
    this.handOn(ex, res);
  }

  /** Frees the exchange (its owner may send again from `cb`), then hands the answer on. */
  private handOn(ex: Exchange, res: ClientResponse): void {
    const { cb, s } = ex;
    ex.busy = false;
    ex.cb = NONE;
    ex.s = undefined;
    if (!s?.done) cb(res, ex);
  }

  private cause(op: Operation, res: TargetResponse, inFlightAtSend: number, atMs: number): LimitCauseName {
    if (this.target.causesReported) return reportedCause(res) ?? 'unknown';
    return inferCause(this.limits[op], {
      inFlightAtSend,
      recentSent: this.rates.of(op).inWindow(atMs),
      lastQueueDepth: this.lastQueueDepth,
      queueThrottleAt: this.queueThrottleAt,
      jobCreating: JOB_CREATING.has(op),
    });
  }
}
