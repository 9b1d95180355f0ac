/**
 * HDR histograms merged exactly: adding histograms of the same range and precision gives the
 * histogram of the union of their samples. Every output is re-encoded from a fresh histogram
 * (report/histogram.ts), even from one input: a shard's per-window encodings may be deflated
 * differently (load/record/sparse-encoding.ts), and one canonical encoding per content keeps the
 * merged report.json byte-identical for any grouping of inputs.
 */
import { encode, mergeEncoded, mergeWindowEncodings, type EncodedHistogram } from '../histogram.js';
import { at } from './alignment.js';

/** Whole-run histograms: the sum. */
export function mergeHistograms(list: readonly EncodedHistogram[]): EncodedHistogram {
  return mergeEncoded(list);
}

/**
 * Per-window encodings (`""` empty) of several inputs, each moved right by its shift, added per
 * merged window 0 … n − 1.
 */
export function mergeWindowSeries(series: readonly (readonly string[] | undefined)[], shifts: readonly number[], n: number): string[] {
  const out: string[] = [];
  for (let w = 0; w < n; w++) {
    const h = mergeWindowEncodings(series.map((s, i) => at(s, shifts[i]!, w, '')));
    out.push(h ? encode(h).hdr : '');
  }
  return out;
}
