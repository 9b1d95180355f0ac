/**
 * A map keyed by two values the caller already has (an endpoint id and a status, say): two Map
 * lookups, no key string built per call. The batched metrics keep one entry per label set in it.
 */
export class TwoKeyMap<V> {
  private readonly outer = new Map<string, Map<string | number, V>>();

  get(a: string, b: string | number): V | undefined {
    return this.outer.get(a)?.get(b);
  }

  set(a: string, b: string | number, v: V): void {
    let inner = this.outer.get(a);
    if (inner === undefined) this.outer.set(a, (inner = new Map()));
    inner.set(b, v);
  }

  /** Every value, in insertion order of `a`, then of `b`. */
  *values(): IterableIterator<V> {
    for (const inner of this.outer.values()) yield* inner.values();
  }

  clear(): void {
    this.outer.clear();
  }
}
