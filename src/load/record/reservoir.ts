/**
 * A bounded uniform sample (Vitter's algorithm R): every item added is kept with the same chance,
 * at most `size` of them; once full, each add draws once from `rng`.
 */
import type { RandomStream } from '../../lib/random.js';

export class Reservoir<T> {
  private seen = 0;
  private readonly kept: T[] = [];

  constructor(
    private readonly size: number,
    private readonly rng: RandomStream,
  ) {}

  add(item: T): void {
    const n = ++this.seen;
    if (this.kept.length < this.size) return void this.kept.push(item);
    const k = Math.floor(this.rng.next() * n);
    if (k < this.size) this.kept[k] = item;
  }

  /** Items added, kept or not. */
  get count(): number {
    return this.seen;
  }

  /** The items kept (a copy). */
  items(): T[] {
    return this.kept.slice();
  }
}
