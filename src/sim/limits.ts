/**
 * Per-endpoint, per-operation request limits: a rate over a window and a concurrency
 * cap on requests in flight. Held requests (runsync, status-sync, stream long-poll) keep their
 * concurrency slot until answered or abandoned.
 */
import type { EndpointConfig } from '../contract/endpoint-config.js';
import { DEFAULT_LIMITS, type Operation } from '../contract/operations.js';
import type { LimitCause } from '../contract/sim-events.js';
import { FixedWindow, SlidingWindow, type RateLimiter } from './rate-limiter.js';

interface OpState {
  rate: number | null;
  concurrency: number | null;
  limiter: RateLimiter;
  inFlight: number;
  /** Highest in-flight count seen (headroom). */
  peakInFlight: number;
}

export class Limits {
  private readonly ops = new Map<string, OpState>();
  /**
   * The last two operations looked up, newest first: a request's admit and release ask for the
   * same one, and a run-and-poll load alternates between two (`/run`, `/status`).
   */
  private lastOp: string | undefined;
  private lastState: OpState | undefined;
  private prevOp: string | undefined;
  private prevState: OpState | undefined;

  constructor(private readonly cfg: EndpointConfig['limits']) {
    for (const [op, base] of Object.entries(DEFAULT_LIMITS) as [Operation, (typeof DEFAULT_LIMITS)[Operation]][]) {
      const o = cfg.operations[op] ?? {};
      const rate = o.rate !== undefined ? o.rate : base.rate;
      const concurrency = o.concurrency !== undefined ? o.concurrency : base.concurrency;
      this.ops.set(op, {
        rate: rate === null ? null : Math.max(1, Math.round(rate * cfg.scale)),
        concurrency: concurrency === null ? null : Math.max(1, Math.round(concurrency * cfg.scale)),
        limiter: cfg.window === 'sliding' ? new SlidingWindow(cfg.windowMs) : new FixedWindow(cfg.windowMs),
        inFlight: 0,
        peakInFlight: 0,
      });
    }
  }

  /** The rate limit in force, with the per-worker dynamic floor. */
  effectiveRate(op: Operation, readyWorkers: number): number | null {
    const s = this.state(op);
    if (s.rate === null) return null;
    const floor = this.cfg.perWorkerRate ? readyWorkers * this.cfg.perWorkerRate : 0;
    return floor > s.rate ? floor : s.rate;
  }

  /**
   * Admits a request (takes a concurrency slot and a rate token) or names the limit it hits.
   * Concurrency is checked first so a rejected request does not use up the rate budget.
   */
  admit(op: Operation, nowMs: number, readyWorkers: number): LimitCause | undefined {
    const s = this.state(op);
    if (this.cfg.enabled) {
      if (s.concurrency !== null && s.inFlight >= s.concurrency) return 'concurrency';
      const rate = this.effectiveRate(op, readyWorkers);
      if (rate !== null && !s.limiter.tryAcquire(nowMs, rate)) return 'rate';
    }
    if (++s.inFlight > s.peakInFlight) s.peakInFlight = s.inFlight;
    return undefined;
  }

  /**
   * Gives back the rate token `admit` took for a request that a later check refused with a 429
   * (queue throttling), in the same instant: only requests answered otherwise use up the budget.
   */
  refundRate(op: Operation): void {
    const s = this.state(op);
    if (this.cfg.enabled && s.rate !== null) s.limiter.untake();
  }

  /** Frees the concurrency slot of an answered or abandoned request. */
  release(op: Operation): void {
    const s = this.state(op);
    if (s.inFlight > 0) s.inFlight--;
  }

  /** Queue throttling: more than `queueMin` AND more than workersMax × `queuePerWorker`. */
  queueFull(queueLength: number, workersMax: number): boolean {
    return this.cfg.enabled && queueLength > this.cfg.queueMin && queueLength > workersMax * this.cfg.queuePerWorker;
  }

  snapshot(op: Operation, nowMs: number): { rate: number | null; concurrency: number | null; windowCount: number; inFlight: number; peakInFlight: number } {
    const s = this.state(op);
    return { rate: s.rate, concurrency: s.concurrency, windowCount: s.limiter.count(nowMs), inFlight: s.inFlight, peakInFlight: s.peakInFlight };
  }

  private state(op: Operation): OpState {
    if (op !== this.lastOp) {
      const s = op === this.prevOp ? this.prevState : this.ops.get(op);
      this.prevOp = this.lastOp;
      this.prevState = this.lastState;
      this.lastOp = op;
      this.lastState = s;
    }
    return this.lastState!;
  }
}
