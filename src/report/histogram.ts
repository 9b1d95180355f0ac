/**
 * HDR histograms of durations, stored in a RunResult as HdrHistogram's compressed base64 (the V2
 * encoding other HDR tools read) so shards merge by adding histograms. Range 0 ms – 1 week at 3
 * significant digits. The values are integers: whole ms (scale 1, every series but the stream
 * times) or ms × `scale` (the stream times TTFT, ITL, TPOT: scale 100, hundredths of a ms, since
 * at a few ms a token whole ms are a 15 % step). An encoding says its scale (`scale`, absent: 1);
 * summaries are in ms either way.
 */
import * as hdr from 'hdr-histogram-js';
import { clampMs } from '../lib/clamp-ms.js';
import { InternalError } from '../contract/loadlab-error.js';

export type Histogram = hdr.Histogram;

export const HIGHEST_MS = 7 * 24 * 3600 * 1000;

/** A histogram whose values are ms × `scale` (1: whole ms; 100: hundredths of a ms), up to HIGHEST_MS. */
export function newHistogram(scale = 1): Histogram {
  return hdr.build({
    bitBucketSize: 32,
    numberOfSignificantValueDigits: 3,
    lowestDiscernibleValue: 1,
    highestTrackableValue: HIGHEST_MS * scale,
    autoResize: false,
    useWebAssembly: false,
  });
}

/**
 * `ms` as recorded at `scale`: ms × scale rounded to a whole number in the trackable range
 * (negative lags from rounding count as 0).
 */
export function recordedValue(ms: number, scale = 1): number {
  return clampMs(ms * scale, HIGHEST_MS * scale);
}

/** Records `ms`, clamped to the trackable range. */
export function record(h: Histogram, ms: number, scale = 1): void {
  h.recordValue(recordedValue(ms, scale));
}

/** A histogram as stored in report.json: the encoding plus a readable summary. */
export interface EncodedHistogram {
  count: number;
  /**
   * The encoding's values are ms × scale: 100 (hundredths of a ms) for the stream times TTFT, ITL
   * and TPOT; absent: 1, whole ms (every other series, and stream times of older reports).
   */
  scale?: number;
  /** Percentiles and extremes in ms (from the histogram: 3 significant digits; a fraction at scale 100). */
  summary: LatencySummary;
  /** HdrHistogram V2 compressed base64; empty when count is 0. */
  hdr: string;
}

export interface LatencySummary {
  min: number;
  mean: number;
  p50: number;
  p90: number;
  p95: number;
  p99: number;
  p999: number;
  max: number;
}

const EMPTY: LatencySummary = { min: 0, mean: 0, p50: 0, p90: 0, p95: 0, p99: 0, p999: 0, max: 0 };

/** An encoding's scale (values per ms). */
export const scaleOf = (e: { scale?: number }): number => e.scale ?? 1;

/** The summary in ms of `h`, whose values are ms × `scale`. */
export function summarize(h: Histogram, scale = 1): LatencySummary {
  if (h.totalCount === 0) return { ...EMPTY };
  const at = (p: number) => Math.min(h.getValueAtPercentile(p), h.maxValue) / scale;
  return {
    // The lowest recorded value (0 when a 0 was recorded), not the bucket's upper edge.
    min: h.getValueAtPercentile(0) === 0 ? 0 : h.minNonZeroValue / scale,
    mean: Math.round((h.mean / scale) * 1000) / 1000,
    p50: at(50),
    p90: at(90),
    p95: at(95),
    p99: at(99),
    p999: at(99.9),
    max: h.maxValue / scale,
  };
}

/** `h` (values ms × `scale`) as report.json stores it; `scale` is written only when it is not 1. */
export function encode(h: Histogram, scale = 1): EncodedHistogram {
  return {
    count: h.totalCount,
    ...(scale === 1 ? {} : { scale }),
    summary: summarize(h, scale),
    hdr: h.totalCount ? hdr.encodeIntoCompressedBase64(h) : '',
  };
}

/** The histogram of an encoding, in its own scale (`scaleOf(e)`). */
export function decode(e: EncodedHistogram): Histogram {
  if (!e.hdr) return newHistogram(scaleOf(e));
  return decodeWindow(e.hdr);
}

/** One HDR histogram from its compressed base64 (a RunResult window, or an EncodedHistogram's `hdr`). */
export function decodeWindow(base64: string): Histogram {
  return hdr.decodeFromCompressedBase64(base64, 32, false);
}

/**
 * Adds `h` (values ms × `hScale`) into `into` (values ms × `intoScale`, not coarser). The same
 * scale adds counts exactly; a coarser `h` (an older report's whole ms) is recorded bucket by
 * bucket at its median value times the ratio: it keeps its own resolution, no finer.
 */
export function addScaled(into: Histogram, intoScale: number, h: Histogram, hScale: number): void {
  if (hScale === intoScale) {
    into.add(h);
    return;
  }
  if (!(h instanceof hdr.JsHistogram)) throw new InternalError('expected a JavaScript HDR histogram');
  const f = intoScale / hScale;
  const it = h.recordedValuesIterator;
  it.reset();
  while (it.hasNext()) {
    const v = it.next();
    into.recordValueWithCount(Math.min(Math.round(h.medianEquivalentValue(v.valueIteratedTo) * f), HIGHEST_MS * intoScale), v.countAtValueIteratedTo);
  }
}

/** Adds encoded histograms (shards, per-operation totals) into one, at the finest scale among them. */
export function mergeEncoded(list: readonly EncodedHistogram[]): EncodedHistogram {
  const scale = Math.max(1, ...list.map(scaleOf));
  const out = newHistogram(scale);
  for (const e of list) if (e.count) addScaled(out, scale, decode(e), scaleOf(e));
  return encode(out, scale);
}

/**
 * Decodes and adds per-window encodings (RunResult.windows; `""` skipped), all of values ms ×
 * `scale`; undefined when all are empty.
 */
export function mergeWindowEncodings(list: readonly string[], scale = 1): Histogram | undefined {
  let out: Histogram | undefined;
  for (const e of list) {
    if (!e) continue;
    out ??= newHistogram(scale);
    out.add(decodeWindow(e));
  }
  return out;
}
