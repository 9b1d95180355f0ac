/**
 * Requests of one operation sent over time, as a rate limiter of `windowMs` sees them: the most
 * sent in any window-long interval (a sliding limiter's view: it lets at most its limit through
 * in any such interval), the most in one window aligned to multiples of `windowMs` (a fixed
 * limiter's view), and the count in the window ending now (cause inference). Times are whole ms
 * of the target's clock, never decreasing. Memory: one (ms, count) entry per distinct ms in the
 * current window, so at most `windowMs` entries whatever the rate.
 */
export class SendRate {
  /** Most requests in any interval (t − windowMs, t]. */
  slidingPeak = 0;
  /** Most requests in one window [k × windowMs, (k + 1) × windowMs). */
  fixedPeak = 0;
  private ms = new Float64Array(16);
  private n = new Float64Array(16);
  /** Ring of entries: `head` is the oldest, `len` in use. */
  private head = 0;
  private len = 0;
  private sum = 0;
  /** The fixed window of the latest request ends here (a multiple of windowMs). */
  private fixedEnd: number;
  private fixedCount = 0;

  constructor(readonly windowMs: number) {
    this.fixedEnd = windowMs;
  }

  /** A request sent at `atMs`. */
  add(atMs: number): void {
    const t = Math.floor(atMs);
    this.evict(t);
    const cap = this.ms.length;
    const last = (this.head + this.len - 1) & (cap - 1);
    // Times never decrease; an earlier one (clock jitter) joins the latest ms.
    if (this.len > 0 && this.ms[last]! >= t) this.n[last]!++;
    else {
      if (this.len === cap) this.grow();
      const i = (this.head + this.len++) & (this.ms.length - 1);
      this.ms[i] = t;
      this.n[i] = 1;
    }
    if (++this.sum > this.slidingPeak) this.slidingPeak = this.sum;
    if (t >= this.fixedEnd) {
      this.fixedEnd = (Math.floor(t / this.windowMs) + 1) * this.windowMs;
      this.fixedCount = 0;
    }
    if (++this.fixedCount > this.fixedPeak) this.fixedPeak = this.fixedCount;
  }

  /** Requests sent in (atMs − windowMs, atMs]. */
  inWindow(atMs: number): number {
    this.evict(Math.floor(atMs));
    return this.sum;
  }

  private evict(t: number): void {
    const edge = t - this.windowMs;
    const mask = this.ms.length - 1;
    while (this.len > 0 && this.ms[this.head]! <= edge) {
      this.sum -= this.n[this.head]!;
      this.head = (this.head + 1) & mask;
      this.len--;
    }
  }

  /** Doubles the ring (a power of two), oldest entry first. */
  private grow(): void {
    const cap = this.ms.length;
    const ms = new Float64Array(cap * 2);
    const n = new Float64Array(cap * 2);
    for (let j = 0; j < this.len; j++) {
      const i = (this.head + j) & (cap - 1);
      ms[j] = this.ms[i]!;
      n[j] = this.n[i]!;
    }
    this.ms = ms;
    this.n = n;
    this.head = 0;
  }
}

/** One SendRate per operation. */
export class SendRates {
  private readonly byOp = new Map<string, SendRate>();

  constructor(readonly windowMs: number) {}

  of(op: string): SendRate {
    let r = this.byOp.get(op);
    if (!r) this.byOp.set(op, (r = new SendRate(this.windowMs)));
    return r;
  }

  /** Operations seen, sorted. */
  get ops(): string[] {
    return [...this.byOp.keys()].sort();
  }
}
