/**
 * Families of metrics.om as the renderer thinks of them — a counter or gauge as series of points,
 * a histogram as per-window HDR encodings — written through OpenMetricsWriter with every sample's
 * run ms mapped onto the start instant and every series labelled with `endpoint` and `scenario`.
 * Each family's samples stay together and each series' points in increasing time, as OpenMetrics
 * requires.
 */
import { scaleOf, type EncodedHistogram } from '../histogram.js';
import { SUMMARY_QUANTILES } from '../histogram-buckets.js';
import { canonicalNumber, type Labels, type OmType, type OpenMetricsWriter } from '../openmetrics-text.js';
import type { WindowBucketCounter } from './window-buckets.js';
import type { Points, WindowGrid } from './window-grid.js';

export type Series = readonly [Labels, Points];
/**
 * A histogram series: its labels, one HDR encoding per window of `grid` (`""`: empty), and the
 * encodings' values per ms (absent: 1, whole ms; 100: the stream times' hundredths of a ms).
 */
export type HistogramSeries = readonly [Labels, readonly string[], WindowGrid, number?];
/** A histogram family's buckets: the counter of its bounds (ms) and the same bounds as `le` values. */
export interface HistogramBins {
  counter: WindowBucketCounter;
  les: readonly string[];
}
type Label = readonly [string, string];

export class OmEmitter {
  constructor(
    private readonly w: OpenMetricsWriter,
    private readonly startMs: number,
    private readonly base: Labels,
    private readonly buckets: WindowBucketCounter,
    /** Bucket bounds as `le` values (canonical spelling), without `+Inf`. */
    private readonly les: readonly string[],
  ) {}

  /** `endpoint`, `scenario`, then `extra`. */
  labels(...extra: Label[]): Labels {
    return [...this.base, ...extra];
  }

  private points(type: OmType, name: string, help: string, sample: string, series: readonly Series[], unit?: string): void {
    this.w.family(name, type, help, unit);
    for (const [labels, pts] of series) {
      const id = this.w.series(sample, labels);
      for (const [t, v] of pts) this.w.sampleOf(id, v, this.startMs + t);
    }
  }

  /** A counter family (`name` without `_total`; its samples have it). */
  counter(name: string, help: string, series: readonly Series[], unit?: string): void {
    this.points('counter', name, help, `${name}_total`, series, unit);
  }

  /** A gauge family; none when no series has a point. */
  gauge(name: string, help: string, series: readonly Series[], unit?: string): void {
    if (series.some(([, pts]) => pts.length)) this.points('gauge', name, help, name, series, unit);
  }

  /** An info family (sample `<name>_info`). */
  info(name: string, help: string, labels: Labels, pts: Points): void {
    this.points('info', name, help, `${name}_info`, [[labels, pts]]);
  }

  /**
   * A classic histogram in seconds, cumulative over time: all zero at the start, then at every
   * window end each `le` bucket, `+Inf`, `_count` and `_sum` of every sample up to that window.
   * Series without samples are left out, the family when none has any. `bins`: the family's
   * buckets (default: the emitter's, DURATION_BUCKETS_S).
   */
  histogram(name: string, help: string, series: readonly HistogramSeries[], bins?: HistogramBins): void {
    const used = series.filter(([, encs]) => encs.some((e) => e !== ''));
    if (!used.length) return;
    const b = bins ?? { counter: this.buckets, les: this.les };
    this.w.family(name, 'histogram', help, 'seconds');
    for (const [labels, encs, grid, scale] of used) this.histogramSeries(name, labels, encs, grid, b, scale ?? 1);
  }

  private histogramSeries(name: string, labels: Labels, encs: readonly string[], grid: WindowGrid, bins: HistogramBins, scale: number): void {
    const w = this.w;
    const ids = [...bins.les, '+Inf'].map((le) => w.series(`${name}_bucket`, [...labels, ['le', le]]));
    const countId = w.series(`${name}_count`, labels);
    const sumId = w.series(`${name}_sum`, labels);
    const totals = new Float64Array(ids.length);
    let count = 0;
    let sumMs = 0;
    const point = (t: number) => {
      const at = this.startMs + t;
      let acc = 0;
      for (let j = 0; j < ids.length; j++) w.sampleOf(ids[j]!, (acc += totals[j]!), at);
      w.sampleOf(countId, count, at);
      w.sampleOf(sumId, sumMs / 1000, at);
    };
    point(0);
    for (let i = 0; i < grid.n; i++) {
      const c = bins.counter.count(encs[i] ?? '', scale);
      for (let j = 0; j < totals.length; j++) totals[j]! += c.perBucket[j]!;
      count += c.count;
      sumMs += c.sumMs;
      point(grid.end(i));
    }
  }

  /**
   * A summary of whole-run HDR histograms at one instant (`at`, run ms): the run's quantiles in
   * seconds (quantile 0 = min, 1 = max), `_count`, `_sum`. Series without samples are left out.
   */
  summary(name: string, help: string, at: number, series: readonly (readonly [Labels, EncodedHistogram])[]): void {
    const used = series.filter(([, e]) => e.count > 0);
    if (!used.length) return;
    this.w.family(name, 'summary', help, 'seconds');
    const ms = this.startMs + at;
    for (const [labels, e] of used) {
      for (const [q, key] of SUMMARY_QUANTILES) this.w.sample(name, [...labels, ['quantile', canonicalNumber(q)]], e.summary[key] / 1000, ms);
      this.w.sample(`${name}_count`, labels, e.count, ms);
      this.w.sample(`${name}_sum`, labels, this.buckets.count(e.hdr, scaleOf(e)).sumMs / 1000, ms);
    }
  }
}
