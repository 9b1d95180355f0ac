/**
 * Fits a duration distribution to measured whole-ms samples, as `jobDurationMs` and `coldStartMs`
 * take it. Tried in order: a constant (every sample within 2 % of the median), a lognormal
 * (maximum likelihood on the logs), and, when the lognormal is further from the samples than the
 * Kolmogorov–Smirnov limit, the samples themselves (`empirical`, at most 1 000 quantiles).
 */
import { Z95, type DurationSpec } from '../contract/duration-spec.js';
import { partitionPoint } from '../lib/partition-point.js';
import { normalCdf } from './normal-cdf.js';

/** Fewer samples than this: the fit is reported, and flagged as not to be trusted. */
export const MIN_TRUSTED_SAMPLES = 30;
/** Largest KS distance accepted for a lognormal, whatever the sample count. */
export const KS_FLOOR = 0.05;
/** Quantiles an empirical fit keeps. */
export const EMPIRICAL_POINTS = 1000;

export interface DurationFit {
  model: 'constant' | 'lognormal' | 'empirical';
  /** What the scenario's endpoint gets. */
  spec: DurationSpec;
  samples: number;
  /** Percentiles of the samples, and of the fitted distribution (ms, 1 decimal). */
  observed: { p50: number; p95: number };
  fitted: { p50: number; p95: number };
  /** Kolmogorov–Smirnov distance between the samples and the fitted distribution (0 to 1). */
  ks: number;
  /** The KS distance above which a lognormal is refused at this sample count (95 % level, at least KS_FLOOR). */
  ksLimit: number;
  /** The fitted CDF at x (ms): for charts. */
  cdf: (x: number) => number;
}

/** Undefined: no sample. */
export function fitDuration(samples: readonly number[]): DurationFit | undefined {
  const xs = samples.filter((x) => Number.isFinite(x) && x >= 0).sort((a, b) => a - b);
  const n = xs.length;
  if (n === 0) return undefined;
  const observed = { p50: round1(quantile(xs, 0.5)), p95: round1(quantile(xs, 0.95)) };
  const ksLimit = Math.max(KS_FLOOR, 1.36 / Math.sqrt(n));
  const median = quantile(xs, 0.5);
  if (xs[n - 1]! - xs[0]! <= Math.max(1, 0.02 * median)) {
    const ms = Math.round(median);
    const cdf = (x: number): number => (x >= ms ? 1 : 0);
    return { model: 'constant', spec: ms, samples: n, observed, fitted: { p50: ms, p95: ms }, ks: round4(ksDistance(xs, cdf)), ksLimit: round4(ksLimit), cdf };
  }
  // Whole-ms samples: a 0 is anything under half a ms.
  const logs = xs.map((x) => Math.log(Math.max(x, 0.5)));
  const mu = logs.reduce((a, b) => a + b, 0) / n;
  const sigma = Math.sqrt(logs.reduce((a, b) => a + (b - mu) ** 2, 0) / n);
  const logCdf = (x: number): number => (x <= 0 ? 0 : normalCdf((Math.log(x) - mu) / sigma));
  const ks = ksDistance(xs, logCdf);
  if (ks <= ksLimit) {
    const medianMs = round1(Math.exp(mu));
    const p95Ms = round1(Math.exp(mu + Z95 * sigma));
    return {
      model: 'lognormal',
      spec: { dist: 'lognormal', medianMs, p95Ms },
      samples: n,
      observed,
      fitted: { p50: medianMs, p95: p95Ms },
      ks: round4(ks),
      ksLimit: round4(ksLimit),
      cdf: logCdf,
    };
  }
  const points = empiricalPoints(xs);
  const sorted = points.slice().sort((a, b) => a - b);
  const cdf = (x: number): number => upperBound(sorted, x) / sorted.length;
  return {
    model: 'empirical',
    spec: { dist: 'empirical', samplesMs: points },
    samples: n,
    observed,
    fitted: { p50: round1(quantile(sorted, 0.5)), p95: round1(quantile(sorted, 0.95)) },
    ks: round4(ksDistance(xs, cdf)),
    ksLimit: round4(ksLimit),
    cdf,
  };
}

/** An empirical spec's samples from sorted ones: each rounded, at most EMPIRICAL_POINTS (evenly spaced quantiles when more). */
export function empiricalPoints(sorted: readonly number[]): number[] {
  return sorted.length <= EMPIRICAL_POINTS
    ? sorted.map(Math.round)
    : Array.from({ length: EMPIRICAL_POINTS }, (_, i) => Math.round(quantile(sorted, (i + 0.5) / EMPIRICAL_POINTS)));
}

/**
 * The largest gap between the samples' empirical CDF and `cdf`. Samples are whole ms (a draw
 * rounded), so a sample v stands for (v − ½, v + ½]: the CDF is compared there.
 */
export function ksDistance(sorted: readonly number[], cdf: (x: number) => number): number {
  const n = sorted.length;
  let d = 0;
  for (let i = 0; i < n; ) {
    const v = sorted[i]!;
    let j = i;
    while (j < n && sorted[j] === v) j++;
    d = Math.max(d, Math.abs(i / n - cdf(v - 0.5)), Math.abs(j / n - cdf(v + 0.5)));
    i = j;
  }
  return d;
}

/** Linear interpolation between order statistics (type 7, as numpy's default). */
export function quantile(sorted: readonly number[], q: number): number {
  const h = (sorted.length - 1) * q;
  const lo = Math.floor(h);
  const hi = Math.min(lo + 1, sorted.length - 1);
  return sorted[lo]! + (h - lo) * (sorted[hi]! - sorted[lo]!);
}

/** How many of `sorted` are ≤ x. */
export function upperBound(sorted: readonly number[], x: number): number {
  return partitionPoint(sorted.length, (i) => sorted[i]! <= x);
}

const round1 = (x: number): number => Math.round(x * 10) / 10;
const round4 = (x: number): number => Math.round(x * 1e4) / 1e4;
