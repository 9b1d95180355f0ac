/**
 * A prom-client custom metric whose samples are made at scrape time by a function: for values
 * something else already keeps (the runner's recorder), so nothing is counted twice and the hot
 * path does no extra work. The registry spells the text (as for batched-histogram.ts); series
 * labels are given as plain objects, in the order they should print.
 */
import type { Registry } from 'prom-client';

export type MetricType = 'counter' | 'gauge' | 'histogram' | 'summary';
export type LabelSet = Readonly<Record<string, string>>;

/** One sample: `suffix` is added to the family's name (`_bucket`, `_sum`, `_count`; none for a plain value). */
export interface Sample {
  labels: LabelSet;
  value: number;
  suffix?: string;
}

interface PromValue {
  value: number;
  labels: Record<string, string | number>;
  metricName: string;
}

export class ScrapedMetric {
  readonly aggregator = 'sum';

  /** `name`: the family's name as printed (a counter's with `_total`, prom-client's text format). */
  constructor(
    readonly name: string,
    readonly help: string,
    readonly type: MetricType,
    private readonly samples: () => readonly Sample[],
    registry: Registry,
  ) {
    registry.registerMetric(this as unknown as Parameters<Registry['registerMetric']>[0]);
  }

  get(): { name: string; help: string; type: MetricType; values: PromValue[]; aggregator: string } {
    const values = this.samples().map((s) => ({ value: s.value, labels: { ...s.labels }, metricName: this.name + (s.suffix ?? '') }));
    return { name: this.name, help: this.help, type: this.type, values, aggregator: this.aggregator };
  }

  /** prom-client asks for it; a scraped metric holds no state of its own. */
  reset(): void {}
}

/**
 * A classic histogram's samples: `cumulative[j]` observations ≤ `bounds[j]`, then `+Inf` = `count`,
 * `_sum` and `_count` (what prom-client's own Histogram prints).
 */
export function histogramSamples(labels: LabelSet, bounds: readonly number[], cumulative: readonly number[], count: number, sum: number): Sample[] {
  const out: Sample[] = bounds.map((le, j) => ({ labels: { ...labels, le: String(le) }, value: cumulative[j]!, suffix: '_bucket' }));
  out.push({ labels: { ...labels, le: '+Inf' }, value: count, suffix: '_bucket' });
  out.push({ labels, value: sum, suffix: '_sum' }, { labels, value: count, suffix: '_count' });
  return out;
}

/** A summary's samples: one per `[quantile, value]`, then `_sum` and `_count`. */
export function summarySamples(labels: LabelSet, quantiles: readonly (readonly [number, number])[], count: number, sum: number): Sample[] {
  const out: Sample[] = quantiles.map(([q, v]) => ({ labels: { ...labels, quantile: String(q) }, value: v }));
  out.push({ labels, value: sum, suffix: '_sum' }, { labels, value: count, suffix: '_count' });
  return out;
}
