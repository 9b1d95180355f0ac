/**
 * The iteration times of a batching engine (llm-engine.ts) as segments: from global iteration
 * `iter`, starting at exact ms `t`, iterations of `d` ms each until the next segment. Iteration i
 * of a segment ends at `t + (i − iter + 1) × d`, the one formula every reader uses, so a time
 * compared here and a time computed there never disagree by a rounding.
 */
export class EngineSegments {
  private iters: number[] = [];
  private ts: number[] = [];
  private ds: number[] = [];
  private head = 0;

  /** The current segment's first iteration, start and iteration ms. */
  iter0 = 0;
  t0 = 0;
  d = 1;

  begin(iter: number, t: number, d: number): void {
    this.iters.push(iter);
    this.ts.push(t);
    this.ds.push(d);
    this.iter0 = iter;
    this.t0 = t;
    this.d = d;
  }

  /** Forgets the current segment (it is composed again at the same instant). */
  dropLast(): void {
    this.iters.pop();
    this.ts.pop();
    this.ds.pop();
    const n = this.iters.length - 1;
    if (n >= this.head) {
      this.iter0 = this.iters[n]!;
      this.t0 = this.ts[n]!;
      this.d = this.ds[n]!;
    }
  }

  clear(): void {
    this.iters.length = this.ts.length = this.ds.length = 0;
    this.head = 0;
  }

  /** Forgets segments that end before iteration `iter` (nobody asks for their times any more). */
  trimBefore(iter: number): void {
    const it = this.iters;
    let h = this.head;
    while (h + 1 < it.length && it[h + 1]! <= iter) h++;
    this.head = h;
    if (h > 1024 && h * 2 > it.length) {
      this.iters = it.slice(h);
      this.ts = this.ts.slice(h);
      this.ds = this.ds.slice(h);
      this.head = 0;
    }
  }

  /** Exact ms at which iteration `i` of the current segment ends (`endOf` without the search). */
  currentEnd(i: number): number {
    return this.t0 + (i - this.iter0 + 1) * this.d;
  }

  /** Exact ms at which global iteration `i` ends. */
  endOf(i: number): number {
    const s = this.segmentOf(i);
    return this.ts[s]! + (i - this.iters[s]! + 1) * this.ds[s]!;
  }

  /**
   * Appends to `out` the ends of iterations `first` … `first + count − 1`, less `minusMs` (one walk
   * over the segments: a run's token times, relative to its start).
   */
  pushEnds(out: number[], first: number, count: number, minusMs: number): void {
    const it = this.iters;
    let s = this.segmentOf(first);
    for (let k = 0; k < count; k++) {
      const i = first + k;
      while (s + 1 < it.length && it[s + 1]! <= i) s++;
      out.push(this.ts[s]! + (i - it[s]! + 1) * this.ds[s]! - minusMs);
    }
  }

  /** The kept segment that holds global iteration `i` (binary search). */
  private segmentOf(i: number): number {
    const it = this.iters;
    let lo = this.head;
    let hi = it.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if (it[mid]! <= i) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  /** Iterations of the current segment ended by `nowMs` (the same formula as `endOf`). */
  doneBy(nowMs: number): number {
    let m = Math.floor((nowMs - this.t0) / this.d);
    if (m < 0) return 0;
    if (this.t0 + (m + 1) * this.d <= nowMs) m++;
    while (m > 0 && this.t0 + m * this.d > nowMs) m--;
    return m;
  }
}
