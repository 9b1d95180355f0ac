/**
 * The HTTP target's event queue in wall time: a binary min-heap on (fractional ms, insertion
 * order). Unlike the simulator's Scheduler it keeps the fraction of each time and runs nothing
 * before its time: an arrival intended at 10.7 ms goes out at 10.7 ms or later, never at 10.0.
 * Entries are recycled (no allocation per event once the queue has grown).
 */
interface Entry {
  atMs: number;
  seq: number;
  fn: () => void;
}

export class WallQueue {
  private readonly heap: Entry[] = [];
  private readonly free: Entry[] = [];
  private seq = 0;
  /** Intended time of the event running now (NaN between events). */
  runningAtMs = NaN;

  get size(): number {
    return this.heap.length;
  }

  /** Time of the next event; Infinity when empty. */
  nextAtMs(): number {
    return this.heap.length > 0 ? this.heap[0]!.atMs : Infinity;
  }

  push(atMs: number, fn: () => void): void {
    const e = this.free.pop() ?? { atMs: 0, seq: 0, fn };
    e.atMs = atMs;
    e.seq = this.seq++;
    e.fn = fn;
    const h = this.heap;
    let i = h.length;
    h.push(e);
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!less(e, h[p]!)) break;
      h[i] = h[p]!;
      i = p;
    }
    h[i] = e;
  }

  /** Runs the events due at `nowMs` (and those they schedule at or before it), in order. */
  runDue(nowMs: number): number {
    let n = 0;
    const h = this.heap;
    while (h.length > 0 && h[0]!.atMs <= nowMs) {
      const e = this.pop();
      const fn = e.fn;
      this.runningAtMs = e.atMs;
      e.fn = noop;
      this.free.push(e);
      fn();
      n++;
    }
    this.runningAtMs = NaN;
    return n;
  }

  private pop(): Entry {
    const h = this.heap;
    const top = h[0]!;
    const last = h.pop()!;
    if (h.length > 0) {
      let i = 0;
      const n = h.length;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= n) break;
        const r = l + 1;
        const c = r < n && less(h[r]!, h[l]!) ? r : l;
        if (!less(h[c]!, last)) break;
        h[i] = h[c]!;
        i = c;
      }
      h[i] = last;
    }
    return top;
  }
}

function less(a: Entry, b: Entry): boolean {
  return a.atMs < b.atMs || (a.atMs === b.atMs && a.seq < b.seq);
}

function noop(): void {}
