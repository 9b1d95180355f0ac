/**
 * An HDR histogram (report.json's encoding) counted into classic Prometheus buckets: metrics.om
 * and the runner's live /metrics both use it, so a backfilled run and a scraped one agree.
 */
import * as hdr from 'hdr-histogram-js';
import { decode, scaleOf, type EncodedHistogram } from './histogram.js';
import { InternalError } from '../contract/loadlab-error.js';

/** A summary's quantiles (0 = min, 1 = max) and the histogram summary key each reads, in metrics.om and the live /metrics. */
export const SUMMARY_QUANTILES = [
  [0, 'min'],
  [0.5, 'p50'],
  [0.9, 'p90'],
  [0.95, 'p95'],
  [0.99, 'p99'],
  [0.999, 'p999'],
  [1, 'max'],
] as const;

/**
 * Cumulative counts at each bound (a value counts at its HDR bucket's lowest equivalent, so a
 * constant 60 000 ms lands in le=60) and the sum (median equivalents, as HDR's own mean), in ms
 * whatever the encoding's scale (whole ms, or the stream times' hundredths of a ms).
 */
export function bucketCounts(e: EncodedHistogram, boundsMs: readonly number[]): { cumulative: number[]; sumMs: number } {
  const h = decode(e);
  const scale = scaleOf(e);
  if (!(h instanceof hdr.JsHistogram)) throw new InternalError('expected a JavaScript HDR histogram');
  const counts = new Array<number>(boundsMs.length).fill(0);
  let sumMs = 0;
  const it = h.recordedValuesIterator;
  it.reset();
  while (it.hasNext()) {
    const v = it.next();
    const c = v.countAtValueIteratedTo;
    sumMs += (h.medianEquivalentValue(v.valueIteratedTo) / scale) * c;
    const low = h.lowestEquivalentValue(v.valueIteratedTo) / scale;
    const j = boundsMs.findIndex((b) => low <= b);
    if (j >= 0) counts[j]! += c;
  }
  let acc = 0;
  return { cumulative: counts.map((c) => (acc += c)), sumMs };
}
