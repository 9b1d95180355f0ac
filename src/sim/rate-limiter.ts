/**
 * Rate limit of one operation over a window (10 s by default).
 * - sliding: a request at t is accepted when fewer than `limit` were accepted in (t - window, t];
 *   so no window-long interval ever holds more than the limit. O(1) per request: timestamps of
 *   accepted requests in a FIFO, pruned from the front.
 * - fixed: counters reset at multiples of the window.
 * Only accepted requests count: a 429 does not use up the budget (`untake` gives back the token
 * of a request refused by a later check: queue throttling).
 */
import { Deque } from '../lib/deque.js';

export interface RateLimiter {
  /** Accepts (and counts) a request at `nowMs` if `limit` allows it. */
  tryAcquire(nowMs: number, limit: number): boolean;
  /** Requests counted in the window ending at `nowMs` (for headroom reports). */
  count(nowMs: number): number;
  /** Forgets the request accepted last, at the current instant (nothing else was accepted since). */
  untake(): void;
}

export class SlidingWindow implements RateLimiter {
  private readonly accepted = new Deque<number>();
  constructor(private readonly windowMs: number) {}

  tryAcquire(nowMs: number, limit: number): boolean {
    if (this.count(nowMs) >= limit) return false;
    this.accepted.push(nowMs);
    return true;
  }

  untake(): void {
    this.accepted.pop();
  }

  count(nowMs: number): number {
    const edge = nowMs - this.windowMs;
    while (this.accepted.length > 0 && this.accepted.peek()! <= edge) this.accepted.shift();
    return this.accepted.length;
  }
}

export class FixedWindow implements RateLimiter {
  private windowStart = 0;
  private n = 0;
  constructor(private readonly windowMs: number) {}

  tryAcquire(nowMs: number, limit: number): boolean {
    if (this.count(nowMs) >= limit) return false;
    this.n++;
    return true;
  }

  untake(): void {
    if (this.n > 0) this.n--;
  }

  count(nowMs: number): number {
    const start = nowMs - (nowMs % this.windowMs);
    if (start !== this.windowStart) {
      this.windowStart = start;
      this.n = 0;
    }
    return this.n;
  }
}
