/**
 * FIFO of (sequence number, deadline) pairs in one growable `Float64Array` ring: what an expiry
 * lane holds for each retained job. Numbers in a typed array, not objects: millions of entries
 * cost 16 B each and nothing for the garbage collector to trace.
 */
export class DeadlineRing {
  /** Pairs: [seq, atMs] at 2i, 2i + 1. */
  private buf = new Float64Array(32);
  /** Capacity in pairs minus one (a power of two minus one). */
  private mask = 15;
  private head = 0;
  private n = 0;

  get length(): number {
    return this.n;
  }

  push(seq: number, atMs: number): void {
    if (this.n > this.mask) this.grow();
    const i = ((this.head + this.n) & this.mask) * 2;
    this.buf[i] = seq;
    this.buf[i + 1] = atMs;
    this.n++;
  }

  /** Sequence number of the oldest entry (call only when not empty). */
  headSeq(): number {
    return this.buf[this.head * 2]!;
  }

  /** Deadline of the oldest entry (call only when not empty). */
  headAt(): number {
    return this.buf[this.head * 2 + 1]!;
  }

  shift(): void {
    this.head = (this.head + 1) & this.mask;
    this.n--;
  }

  private grow(): void {
    const cap = this.mask + 1;
    const buf = new Float64Array(cap * 4);
    const first = Math.min(this.n, cap - this.head);
    buf.set(this.buf.subarray(this.head * 2, (this.head + first) * 2), 0);
    buf.set(this.buf.subarray(0, (this.n - first) * 2), first * 2);
    this.buf = buf;
    this.mask = cap * 2 - 1;
    this.head = 0;
  }
}
