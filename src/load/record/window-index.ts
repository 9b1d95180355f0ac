/**
 * `floor(t / windowMs)` for times that mostly fall in the window of the previous one: two
 * comparisons against that window's bounds instead of a division per sample (the recorder finds
 * several windows per request).
 */
export class WindowIndex {
  private lo = 0;
  private hi = 0;
  private i = -1;

  constructor(readonly windowMs: number) {}

  of(t: number): number {
    if (t >= this.lo && t < this.hi) return this.i;
    const i = Math.floor(t / this.windowMs);
    this.lo = i * this.windowMs;
    this.hi = this.lo + this.windowMs;
    this.i = i;
    return i;
  }
}
