/**
 * The counts-array layout of the run's HDR histograms (report/histogram.ts: 1 to HIGHEST_MS ×
 * scale at 3 significant digits): every value below 2048 has its own index, then each doubling of
 * the range has 1024 indexes, each for a run of equal-width values. Counting samples by index
 * instead of by value keeps the counters small (some 86 kB for a week of whole ms, 110 kB at scale
 * 100; a few kB for the values a run usually sees) and gives the histogram HDR itself would build.
 */
import { HIGHEST_MS } from '../../report/histogram.js';

const SUB_BUCKET_HALF_MAGNITUDE = 10;
const SUB_BUCKET_HALF = 1 << SUB_BUCKET_HALF_MAGNITUDE;
const TWO_POW_32 = 2 ** 32;

/**
 * The counts-array index of `v` (an integer in 0 … HIGHEST_MS × scale), as HdrHistogram's
 * `countsArrayIndex`. Values reach 2^32 at scale 100 (from 43 s on): their bit length is read
 * from the high word.
 */
export function countsIndex(v: number): number {
  if (v < 2 * SUB_BUCKET_HALF) return v;
  const bits = v < TWO_POW_32 ? 32 - Math.clz32(v) : 64 - Math.clz32(Math.floor(v / TWO_POW_32));
  const bucket = bits - 1 - SUB_BUCKET_HALF_MAGNITUDE;
  return ((bucket + 1) << SUB_BUCKET_HALF_MAGNITUDE) + Math.floor(v / 2 ** bucket) - SUB_BUCKET_HALF;
}

/** The lowest value counted at index `i` (HdrHistogram's `valueFromIndex`). */
export function lowestValueAt(i: number): number {
  if (i < 2 * SUB_BUCKET_HALF) return i;
  const bucket = (i >>> SUB_BUCKET_HALF_MAGNITUDE) - 1;
  return ((i & (SUB_BUCKET_HALF - 1)) + SUB_BUCKET_HALF) * 2 ** bucket;
}

/** Indexes 0 … indexesAt(scale) - 1 cover 0 … HIGHEST_MS × scale. */
export const indexesAt = (scale: number): number => countsIndex(HIGHEST_MS * scale) + 1;

/** Indexes 0 … INDEXES - 1 cover 0 … HIGHEST_MS (whole ms). */
export const INDEXES = indexesAt(1);
