/**
 * Percentiles over time from the per-window HDR histograms of a RunResult (`windows`): computed
 * here, at render time, and embedded as numbers (the browser never decodes a histogram). A point
 * merges the histograms of its windows and of every list given (operations, flows), so a
 * downsampled p99 is the p99 of all its samples, not an average of p99s.
 */
import { mergeWindowEncodings } from '../histogram.js';
import type { Grouping } from './downsample.js';

/**
 * For each percentile of `ps`, one value per point (ms; null: no sample in the point). `scale`:
 * the encodings' values per ms (1: whole ms; 100: the stream times' hundredths of a ms).
 */
export function percentilesOverTime(lists: readonly (readonly string[])[], g: Grouping, ps: readonly number[], scale = 1): (number | null)[][] {
  const out = ps.map(() => [] as (number | null)[]);
  for (let i = 0; i < g.points; i++) {
    const encs: string[] = [];
    for (const l of lists) for (let k = i * g.per; k < Math.min((i + 1) * g.per, l.length); k++) encs.push(l[k]!);
    const h = mergeWindowEncodings(encs, scale);
    ps.forEach((p, j) => out[j]!.push(h && h.totalCount ? Math.min(h.getValueAtPercentile(p), h.maxValue) / scale : null));
  }
  return out;
}
