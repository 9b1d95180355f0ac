/**
 * Virtual clock and event queue. Time is an integer count of milliseconds since the simulation
 * started. Events run in `(atMs, seq)` order, `seq` being an insertion counter, so equal times keep
 * scheduling order and a seed fully determines a run.
 *
 * Two structures hold pending timers:
 * - a timing wheel for the near future (less than WHEEL_MS ahead when scheduled): one FIFO list
 *   per millisecond slot, so insertion order is `seq` order within a slot, and a bitmap of
 *   non-empty slots to find the next one. Job ends, expiries and arrivals land here: O(1) each,
 *   however many jobs run at once.
 * - an indexed binary heap for later timers (ttl deadlines, long waits).
 * The next event is the earlier of the wheel's first slot head and the heap top. Every timer in a
 * slot has the same `atMs` (a slot is reused only after the clock passed its previous time), and
 * cancelling unlinks the timer at once: a job's ttl timer cancelled on completion must not linger.
 *
 * A third, small FIFO holds end-of-millisecond timers (`atEndOfMs`): they run after every other
 * event of the current ms, those scheduled meanwhile included, and before the clock moves on.
 * `runUntil(t)` leaves those of ms `t` pending (more may happen at `t`: a request arriving after
 * the advance), and `peekMs` reports them at `t + 0.5`. Scale-down uses them: a worker that goes
 * idle is stopped only once nothing else of that ms can give it a job.
 */
export interface Timer {
  atMs: number;
  /** Insertion counter; ties on `atMs` run in this order. */
  seq: number;
  /** Heap slot (or 0 in the wheel: see `wheel`), or -1 once run or cancelled. */
  idx: number;
  // biome-ignore lint/suspicious/noExplicitAny: each timer's fn takes its own arg type (the scheduler never reads it)
  readonly fn: (arg: any) => void;
  /** Passed to `fn`: lets hot paths share one function instead of allocating a closure per event. */
  readonly arg: unknown;
  /** In a wheel slot's list (prev/next link it) rather than the heap. */
  wheel: boolean;
  prev: Timer | undefined;
  next: Timer | undefined;
}

/** `Timer.idx` of a pending end-of-millisecond timer. */
const END_OF_MS = -2;

/** Span of the wheel in ms (a power of two). */
const WHEEL_MS = 1 << 14;
const MASK = WHEEL_MS - 1;
const WORDS = WHEEL_MS >>> 5;

export class Scheduler {
  private heap: Timer[] = [];
  private readonly heads: (Timer | undefined)[] = new Array<Timer | undefined>(WHEEL_MS).fill(undefined);
  private readonly tails: (Timer | undefined)[] = new Array<Timer | undefined>(WHEEL_MS).fill(undefined);
  /** Bit `s` set: slot `s` holds timers. */
  private readonly used = new Int32Array(WORDS);
  private inWheel = 0;
  /**
   * Pending end-of-ms timers (all at `now`): `endOfMs[endHead..endN)`, oldest first. The array is
   * reused, never truncated (a truncation reallocated its storage on every drain).
   */
  private readonly endOfMs: (Timer | undefined)[] = [];
  private endHead = 0;
  private endN = 0;
  private seq = 0;
  private now = 0;
  /** Events run since construction (for benchmarks and progress lines). */
  eventsRun = 0;

  get nowMs(): number {
    return this.now;
  }

  get pending(): number {
    return this.heap.length + this.inWheel + this.endN - this.endHead;
  }

  /** Next event time, or undefined when idle; an end-of-ms timer of ms `t` reports `t + 0.5`. */
  peekMs(): number | undefined {
    const t = this.peek();
    return t === undefined ? undefined : t.idx === END_OF_MS ? t.atMs + 0.5 : t.atMs;
  }

  /** Runs `fn(arg)` at `atMs` (floored to whole ms; clamped to now: the past cannot be scheduled). */
  at<T>(atMs: number, fn: (arg: T) => void, arg?: T): Timer {
    const t: Timer = { atMs: 0, seq: 0, idx: -1, fn, arg, wheel: false, prev: undefined, next: undefined };
    this.insert(t, atMs);
    return t;
  }

  /**
   * Schedules a timer that has run (or was cancelled) again, at `atMs`, with its function and
   * argument: recurring timers (expiry lanes, reapers) then allocate nothing.
   */
  again(t: Timer, atMs: number): Timer {
    if (t.idx !== -1) this.cancel(t);
    this.insert(t, atMs);
    return t;
  }

  after<T>(delayMs: number, fn: (arg: T) => void, arg?: T): Timer {
    return this.at(this.now + delayMs, fn, arg);
  }

  /**
   * Runs `fn(arg)` at the end of the current ms: after every event of this ms (those scheduled
   * later included), before the clock moves on. Same-ms end timers run in the order they were set.
   */
  atEndOfMs<T>(fn: (arg: T) => void, arg?: T): Timer {
    const t: Timer = { atMs: 0, seq: 0, idx: -1, fn, arg, wheel: false, prev: undefined, next: undefined };
    return this.againAtEndOfMs(t);
  }

  /** `atEndOfMs` for a timer that has run or was cancelled; one already pending stays as it is. */
  againAtEndOfMs(t: Timer): Timer {
    if (t.idx === END_OF_MS) return t;
    if (t.idx >= 0) this.cancel(t);
    t.atMs = this.now;
    t.seq = this.seq++;
    t.idx = END_OF_MS;
    t.wheel = false;
    this.endOfMs[this.endN++] = t;
    return t;
  }

  cancel(t: Timer | undefined): void {
    if (!t) return;
    if (t.idx < 0) {
      if (t.idx === END_OF_MS) this.cancelEndOfMs(t);
      return;
    }
    if (t.wheel) {
      this.unlink(t);
      return;
    }
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

  /**
   * Runs every event with `atMs <= untilMs` (end-of-ms timers: of the ms before `untilMs`), then
   * sets the clock to `untilMs`.
   */
  runUntil(untilMs: number): void {
    for (let t = this.peek(); t !== undefined && due(t, untilMs); t = this.peek()) this.run(t);
    if (untilMs > this.now) this.now = untilMs;
  }

  /** Runs events until none is left, or `maxEvents` have run (guards against self-feeding loops). */
  runUntilIdle(maxEvents = Number.MAX_SAFE_INTEGER): void {
    let n = 0;
    for (let t = this.peek(); t !== undefined && n++ < maxEvents; t = this.peek()) this.run(t);
  }

  /** Runs the next event if it is due at or before `limitMs`; false when none is (one search, not peek + step). */
  stepUntil(limitMs: number): boolean {
    const t = this.peek();
    if (t === undefined || !due(t, limitMs)) return false;
    this.run(t);
    return true;
  }

  /** Runs the next event; false when idle. */
  step(): boolean {
    const t = this.peek();
    if (!t) return false;
    this.run(t);
    return true;
  }

  private run(t: Timer): void {
    if (t.idx === END_OF_MS) this.shiftEndOfMs(t);
    else this.cancel(t);
    this.now = t.atMs;
    this.eventsRun++;
    t.fn(t.arg);
  }

  private insert(t: Timer, atMs: number): void {
    const at = atMs < this.now ? this.now : Math.floor(atMs);
    t.atMs = at;
    t.seq = this.seq++;
    if (at - this.now < WHEEL_MS) {
      const s = at & MASK;
      const tail = this.tails[s];
      t.wheel = true;
      t.idx = 0;
      t.prev = tail;
      t.next = undefined;
      if (tail) tail.next = t;
      else {
        this.heads[s] = t;
        this.used[s >>> 5]! |= 1 << (s & 31);
      }
      this.tails[s] = t;
      this.inWheel++;
      return;
    }
    t.wheel = false;
    t.idx = this.heap.length;
    this.heap.push(t);
    this.up(t.idx);
  }

  private unlink(t: Timer): void {
    const s = t.atMs & MASK;
    if (t.prev) t.prev.next = t.next;
    else this.heads[s] = t.next;
    if (t.next) t.next.prev = t.prev;
    else this.tails[s] = t.prev;
    if (this.heads[s] === undefined) this.used[s >>> 5]! &= ~(1 << (s & 31));
    t.prev = t.next = undefined;
    t.idx = -1;
    this.inWheel--;
  }

  /** The next timer to run (not removed), or undefined. */
  private peek(): Timer | undefined {
    if (this.endHead < this.endN) return this.peekAtNow();
    const h = this.heap[0];
    const w = this.inWheel > 0 ? this.firstInWheel() : undefined;
    if (!w) return h;
    if (!h) return w;
    return h.atMs < w.atMs || (h.atMs === w.atMs && h.seq < w.seq) ? h : w;
  }

  /**
   * `peek` with end-of-ms timers pending (all at `now`): they come after every other timer of
   * `now`, so only those matter, found in O(1): the wheel slot of `now` holds nothing but timers
   * at `now` (every wheel timer is less than WHEEL_MS ahead), and the heap top.
   */
  private peekAtNow(): Timer | undefined {
    const now = this.now;
    const w = this.heads[now & MASK];
    const top = this.heap[0];
    const h = top !== undefined && top.atMs === now ? top : undefined;
    if (w && h) return h.seq < w.seq ? h : w;
    return w ?? h ?? this.endOfMs[this.endHead];
  }

  /** Takes the head end-of-ms timer `t` (about to run) off the FIFO. */
  private shiftEndOfMs(t: Timer): void {
    t.idx = -1;
    this.endOfMs[this.endHead] = undefined;
    if (++this.endHead === this.endN) this.endHead = this.endN = 0;
  }

  /** Rare (nothing in the core cancels one): closes the gap. */
  private cancelEndOfMs(t: Timer): void {
    t.idx = -1;
    const q = this.endOfMs;
    let i = q.indexOf(t, this.endHead);
    if (i < 0 || i >= this.endN) return;
    for (; i < this.endN - 1; i++) q[i] = q[i + 1];
    q[--this.endN] = undefined;
    if (this.endHead === this.endN) this.endHead = this.endN = 0;
  }

  /** Head of the first non-empty slot at or after the clock (the wheel is not empty). */
  private firstInWheel(): Timer | undefined {
    const used = this.used;
    const from = this.now & MASK;
    let wi = from >>> 5;
    // Bits of the first word at or after `from`; then whole words, wrapping around once.
    let bits = used[wi]! & (-1 << (from & 31));
    for (let n = 0; n <= WORDS; n++) {
      if (bits !== 0) return this.heads[(wi << 5) | (31 - Math.clz32(bits & -bits))];
      wi = (wi + 1) & (WORDS - 1);
      bits = used[wi]!;
    }
    return undefined;
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

/** Is `t` due by `limitMs`? An end-of-ms timer of ms `limitMs` is not: that ms may not be over. */
function due(t: Timer, limitMs: number): boolean {
  return t.atMs < limitMs || (t.atMs === limitMs && t.idx !== END_OF_MS);
}
