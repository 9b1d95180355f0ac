/**
 * A labelled prom-client counter (or gauge: sums may be negative) whose changes are summed in
 * plain Maps and handed to prom-client at scrape time. prom-client hashes and validates the
 * label object on every `inc`; on the hot paths of `serve` (every request, every job and worker
 * event) that is a measurable share of the work, two Map lookups on values the caller already
 * has (no key string built per call) are not.
 */

import type { Counter, Gauge } from 'prom-client';
import { TwoKeyMap } from './two-key-map.js';

interface Pending<L extends string> {
  labels: Record<L, string>;
  n: number;
  /** Changed since the last flush (a gauge's series shows even when the changes summed to 0). */
  touched: boolean;
}

export class BatchedCounter<L extends string> {
  private readonly pending = new TwoKeyMap<Pending<L>>();

  /** What the sums go into: a prom-client `Counter`, or a `Gauge` (sums may then be negative). */
  constructor(private readonly counter: Counter<L> | Gauge<L>) {}

  /**
   * `a` and `b` together must identify the labels, which `labels(a, b)` makes on first use
   * (pass a function made once, not a closure per call).
   */
  inc<A extends string, B extends string | number>(a: A, b: B, labels: (a: A, b: B) => Record<L, string>, n = 1): void {
    const p = this.pending.get(a, b);
    if (p !== undefined) {
      p.n += n;
      p.touched = true;
    } else this.pending.set(a, b, { labels: labels(a, b), n, touched: true });
  }

  /** Moves the sums into prom-client (call before every scrape). */
  flush(): void {
    for (const p of this.pending.values()) {
      if (p.touched) this.counter.inc(p.labels, p.n);
      p.n = 0;
      p.touched = false;
    }
  }
}
