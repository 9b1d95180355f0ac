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
