/**
 * HDR histograms of integer milliseconds, stored in a RunResult as HdrHistogram's compressed
 * base64 (the V2 encoding other HDR tools read) so shards merge by adding histograms.
 * Range 0 ms – 1 week at 3 significant digits.
 */
import * as hdr from 'hdr-histogram-js';
import { clampMs } from '../lib/clamp-ms.js';

export type Histogram = hdr.Histogram;

export const HIGHEST_MS = 7 * 24 * 3600 * 1000;

export function newHistogram(): Histogram {
  return hdr.build({
    bitBucketSize: 32,
    numberOfSignificantValueDigits: 3,
    lowestDiscernibleValue: 1,
    highestTrackableValue: HIGHEST_MS,
    autoResize: false,
    useWebAssembly: false,
  });
}

/** `ms` as recorded: a whole number in the trackable range (negative lags from rounding count as 0). */
export function recordedMs(ms: number): number {
  return clampMs(ms, HIGHEST_MS);
}

/** Records `ms`, clamped to the trackable range. */
export function record(h: Histogram, ms: number): void {
  h.recordValue(recordedMs(ms));
}

/** A histogram as stored in report.json: the encoding plus a readable summary. */
export interface EncodedHistogram {
  count: number;
  /** Percentiles and extremes in ms (from the histogram: 3 significant digits). */
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

export function summarize(h: Histogram): LatencySummary {
  if (h.totalCount === 0) return { ...EMPTY };
  return {
    // The lowest recorded value (0 when a 0 was recorded), not the bucket's upper edge.
    min: h.getValueAtPercentile(0) === 0 ? 0 : h.minNonZeroValue,
    mean: Math.round(h.mean * 1000) / 1000,
    p50: Math.min(h.getValueAtPercentile(50), h.maxValue),
    p90: Math.min(h.getValueAtPercentile(90), h.maxValue),
    p95: Math.min(h.getValueAtPercentile(95), h.maxValue),
    p99: Math.min(h.getValueAtPercentile(99), h.maxValue),
    p999: Math.min(h.getValueAtPercentile(99.9), h.maxValue),
    max: h.maxValue,
  };
}

export function encode(h: Histogram): EncodedHistogram {
  return { count: h.totalCount, summary: summarize(h), hdr: h.totalCount ? hdr.encodeIntoCompressedBase64(h) : '' };
}

export function decode(e: EncodedHistogram): Histogram {
  if (!e.hdr) return newHistogram();
  const h = decodeWindow(e.hdr);
  return h;
}

/** One HDR histogram from its compressed base64 (a RunResult window, or an EncodedHistogram's `hdr`). */
export function decodeWindow(base64: string): Histogram {
  return hdr.decodeFromCompressedBase64(base64, 32, false);
}

/** Adds encoded histograms (shards, per-operation totals) into one. */
export function mergeEncoded(list: readonly EncodedHistogram[]): EncodedHistogram {
  const out = newHistogram();
  for (const e of list) if (e.count) out.add(decode(e));
  return encode(out);
}

/** Decodes and adds per-window encodings (RunResult.windows; `""` skipped); undefined when all are empty. */
export function mergeWindowEncodings(list: readonly string[]): Histogram | undefined {
  let out: Histogram | undefined;
  for (const e of list) {
    if (!e) continue;
    out ??= newHistogram();
    out.add(decodeWindow(e));
  }
  return out;
}
