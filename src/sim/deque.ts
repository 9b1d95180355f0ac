/** FIFO of values with O(1) amortised push and shift; the backing array is compacted lazily. */
export class Deque<T> {
  private items: (T | undefined)[] = [];
  private head = 0;

  get length(): number {
    return this.items.length - this.head;
  }

  push(x: T): void {
    this.items.push(x);
  }

  peek(): T | undefined {
    return this.items[this.head];
  }

  /** The i-th item from the front (0 = oldest). */
  at(i: number): T | undefined {
    return this.items[this.head + i];
  }

  /** Removes `x` wherever it is (O(n); for the rare case it is not at an end). */
  remove(x: T): void {
    const i = this.items.indexOf(x, this.head);
    if (i >= 0) this.items.splice(i, 1);
  }

  /** Removes and returns the newest item. */
  pop(): T | undefined {
    if (this.head >= this.items.length) return undefined;
    return this.items.pop();
  }

  /** The newest item. */
  peekBack(): T | undefined {
    return this.head < this.items.length ? this.items[this.items.length - 1] : undefined;
  }

  shift(): T | undefined {
    if (this.head >= this.items.length) return undefined;
    const x = this.items[this.head];
    this.items[this.head++] = undefined;
    if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return x;
  }
}
