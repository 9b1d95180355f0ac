/**
 * HDR histograms merged exactly: adding histograms of the same range and precision gives the
 * histogram of the union of their samples. Every output is re-encoded from a fresh histogram
 * (report/histogram.ts), even from one input: a shard's per-window encodings may be deflated
 * differently (load/record/sparse-encoding.ts), and one canonical encoding per content keeps the
 * merged report.json byte-identical for any grouping of inputs.
 */
import * as hdr from 'hdr-histogram-js';
import { addScaled, decodeWindow, newHistogram } from '../histogram.js';
import { at } from './alignment.js';

/** The canonical encoding (report/histogram.ts `encode`, without the summary a window does not store). */
const encodeWindow = (h: hdr.Histogram) => hdr.encodeIntoCompressedBase64(h);

/**
 * Per-window encodings (`""` empty) of several inputs, each moved right by its shift, added per
 * merged window 0 … n − 1. One accumulator, reset per window: a 24 h run has 2 000 windows per
 * series, and a fresh histogram each costs as much as decoding one. `scales`: each input's values
 * per ms (absent: all 1, whole ms); the output is at the finest of them.
 */
export function mergeWindowSeries(
  series: readonly (readonly string[] | undefined)[],
  shifts: readonly number[],
  n: number,
  scales?: readonly number[],
): string[] {
  const scale = Math.max(1, ...(scales ?? []));
  const acc = newHistogram(scale);
  const out: string[] = [];
  for (let w = 0; w < n; w++) {
    acc.reset();
    for (let i = 0; i < series.length; i++) {
      const e = at(series[i], shifts[i]!, w, '');
      if (e) addScaled(acc, scale, decodeWindow(e), scales?.[i] ?? 1);
    }
    out.push(acc.totalCount ? encodeWindow(acc) : '');
  }
  return out;
}
