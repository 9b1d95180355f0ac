/**
 * A labelled prom-client counter whose increments are summed in a plain Map and handed to
 * prom-client at scrape time. prom-client hashes and validates the label object on every `inc`;
 * on the request path of `serve` that is a measurable share of the work, a Map lookup is not.
 */
import type { Counter } from 'prom-client';

export class BatchedCounter<L extends string> {
  private readonly pending = new Map<string, { labels: Record<L, string>; n: number }>();

  constructor(private readonly counter: Counter<L>) {}

  /** `key` must identify `labels` (e.g. their values joined); `labels` is read only on first use. */
  inc(key: string, labels: () => Record<L, string>, n = 1): void {
    const p = this.pending.get(key);
    if (p) p.n += n;
    else this.pending.set(key, { labels: labels(), n });
  }

  /** Moves the sums into prom-client (call before every scrape). */
  flush(): void {
    for (const p of this.pending.values()) {
      if (p.n > 0) this.counter.inc(p.labels, p.n);
      p.n = 0;
    }
  }
}
