/**
 * One histogram window's samples as counts by whole ms, for its sparse encoding when it closes
 * (sparse-encoding.ts): below 65 536 ms a plain array indexed by the value (one increment per
 * sample, no hashing), above it a Map. It remembers which values it holds, so clearing it for the
 * next window touches only those.
 */
const DENSE = 65_536;

export class SampleCounts {
  private readonly dense = new Uint32Array(DENSE);
  /** The values below DENSE with a count, in the order first seen: the first `n`. */
  private readonly seen: number[] = [];
  private n = 0;
  private readonly big = new Map<number, number>();

  add(v: number): void {
    if (v < DENSE) {
      if (this.dense[v]!++ === 0) this.seen[this.n++] = v;
    } else this.big.set(v, (this.big.get(v) ?? 0) + 1);
  }

  get size(): number {
    return this.n + this.big.size;
  }

  keys(): IterableIterator<number> {
    return this.seen.slice(0, this.n).concat([...this.big.keys()]).values();
  }

  get(v: number): number | undefined {
    const c = v < DENSE ? this.dense[v] : this.big.get(v);
    return c === 0 ? undefined : c;
  }

  clear(): void {
    const { dense, seen } = this;
    for (let i = 0; i < this.n; i++) dense[seen[i]!] = 0;
    this.n = 0;
    this.big.clear();
  }
}
