/**
 * Virtual clock and event queue. Time is an integer count of milliseconds since the simulation
 * started. Events run in `(atMs, seq)` order, `seq` being an insertion counter, so equal times keep
 * scheduling order and a seed fully determines a run.
 *
 * The heap is indexed (each timer knows its slot) so that cancelling removes the entry at once:
 * a job's ttl timer cancelled on completion must not linger for 24 virtual hours.
 */
export interface Timer {
  atMs: number;
  /** Insertion counter; ties on `atMs` run in this order. */
  seq: number;
  /** Heap slot, or -1 once run or cancelled. */
  idx: number;
  readonly fn: (arg: any) => void;
  /** Passed to `fn`: lets hot paths share one function instead of allocating a closure per event. */
  readonly arg: unknown;
}

export class Scheduler {
  private heap: Timer[] = [];
  private seq = 0;
  private now = 0;
  /** Events run since construction (for benchmarks and progress lines). */
  eventsRun = 0;

  get nowMs(): number {
    return this.now;
  }

  get pending(): number {
    return this.heap.length;
  }

  /** Next event time, or undefined when idle. */
  peekMs(): number | undefined {
    return this.heap[0]?.atMs;
  }

  /** Runs `fn(arg)` at `atMs` (floored to whole ms; clamped to now: the past cannot be scheduled). */
  at<T>(atMs: number, fn: (arg: T) => void, arg?: T): Timer {
    const t: Timer = { atMs: atMs < this.now ? this.now : Math.floor(atMs), seq: this.seq++, idx: this.heap.length, fn, arg };
    this.heap.push(t);
    this.up(t.idx);
    return t;
  }

  /**
   * Schedules a timer that has run (or was cancelled) again, at `atMs`, with its function and
   * argument: recurring timers (expiry lanes, reapers) then allocate nothing.
   */
  again(t: Timer, atMs: number): Timer {
    if (t.idx >= 0) this.cancel(t);
    t.atMs = atMs < this.now ? this.now : Math.floor(atMs);
    t.seq = this.seq++;
    t.idx = this.heap.length;
    this.heap.push(t);
    this.up(t.idx);
    return t;
  }

  after<T>(delayMs: number, fn: (arg: T) => void, arg?: T): Timer {
    return this.at(this.now + delayMs, fn, arg);
  }

  cancel(t: Timer | undefined): void {
    if (!t || t.idx < 0) return;
    const i = t.idx;
    const last = this.heap.pop()!;
    t.idx = -1;
    if (last !== t) {
      this.heap[i] = last;
      last.idx = i;
      this.down(i);
      this.up(last.idx);
    }
  }

  /** Runs every event with `atMs <= untilMs`, then sets the clock to `untilMs`. */
  runUntil(untilMs: number): void {
    while (this.heap.length > 0 && this.heap[0]!.atMs <= untilMs) this.step();
    if (untilMs > this.now) this.now = untilMs;
  }

  /** Runs events until none is left, or `maxEvents` have run (guards against self-feeding loops). */
  runUntilIdle(maxEvents = Number.MAX_SAFE_INTEGER): void {
    let n = 0;
    while (this.heap.length > 0 && n++ < maxEvents) this.step();
  }

  /** Runs the next event; false when idle. */
  step(): boolean {
    const top = this.heap[0];
    if (!top) return false;
    const last = this.heap.pop()!;
    if (last !== top) {
      this.heap[0] = last;
      last.idx = 0;
      this.down(0);
    }
    top.idx = -1;
    this.now = top.atMs;
    this.eventsRun++;
    top.fn(top.arg);
    return true;
  }

  private less(a: Timer, b: Timer): boolean {
    return a.atMs < b.atMs || (a.atMs === b.atMs && a.seq < b.seq);
  }

  private up(i: number): void {
    const h = this.heap;
    const t = h[i]!;
    while (i > 0) {
      const p = (i - 1) >> 1;
      const parent = h[p]!;
      if (!this.less(t, parent)) break;
      h[i] = parent;
      parent.idx = i;
      i = p;
    }
    h[i] = t;
    t.idx = i;
  }

  private down(i: number): void {
    const h = this.heap;
    const n = h.length;
    const t = h[i]!;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= n) break;
      const r = l + 1;
      const c = r < n && this.less(h[r]!, h[l]!) ? r : l;
      const child = h[c]!;
      if (!this.less(child, t)) break;
      h[i] = child;
      child.idx = i;
      i = c;
    }
    h[i] = t;
    t.idx = i;
  }
}
