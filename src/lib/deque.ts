/**
 * Double-ended queue of values: O(1) push, pop and shift on a ring buffer (capacity a power of
 * two, doubled when full). A ring rather than an array trimmed at the front: the expiry lanes hold
 * every retained job (hundreds of thousands), and re-slicing such arrays costs copies and garbage.
 */
export class Deque<T> {
  private items: (T | undefined)[] = new Array<T | undefined>(16).fill(undefined);
  private mask = 15;
  /** Index of the oldest item. */
  private head = 0;
  private n = 0;

  get length(): number {
    return this.n;
  }

  push(x: T): void {
    if (this.n > this.mask) this.grow();
    this.items[(this.head + this.n) & this.mask] = x;
    this.n++;
  }

  peek(): T | undefined {
    return this.n > 0 ? this.items[this.head] : undefined;
  }

  /** Removes `x` wherever it is (O(n); for the rare case it is not at an end). */
  remove(x: T): void {
    let i = 0;
    while (i < this.n && this.items[(this.head + i) & this.mask] !== x) i++;
    if (i === this.n) return;
    for (; i < this.n - 1; i++) this.items[(this.head + i) & this.mask] = this.items[(this.head + i + 1) & this.mask];
    this.items[(this.head + this.n - 1) & this.mask] = undefined;
    this.n--;
  }

  /** Removes and returns the newest item. */
  pop(): T | undefined {
    if (this.n === 0) return undefined;
    const i = (this.head + this.n - 1) & this.mask;
    const x = this.items[i];
    this.items[i] = undefined;
    this.n--;
    return x;
  }

  /** The newest item. */
  peekBack(): T | undefined {
    return this.n > 0 ? this.items[(this.head + this.n - 1) & this.mask] : undefined;
  }

  shift(): T | undefined {
    if (this.n === 0) return undefined;
    const x = this.items[this.head];
    this.items[this.head] = undefined;
    this.head = (this.head + 1) & this.mask;
    this.n--;
    return x;
  }

  private grow(): void {
    const old = this.items;
    const cap = old.length;
    const items = new Array<T | undefined>(cap * 2).fill(undefined);
    for (let i = 0; i < this.n; i++) items[i] = old[(this.head + i) & (cap - 1)];
    this.items = items;
    this.mask = cap * 2 - 1;
    this.head = 0;
  }
}
