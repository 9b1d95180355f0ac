/**
 * A recording front for the run's HDR histograms (values ms × scale: whole ms, or hundredths of a
 * ms for the stream times): each sample is one increment of a plain array
 * indexed as HDR's counts (hdr-index.ts), no HDR bookkeeping on the hot path and a small array
 * (the values a run sees share a few kB of it). `hdr()` folds the counts in, with the exact
 * smallest and largest samples: the result has the same counts, min and max as recording every
 * sample into HDR directly, so report.json does not change.
 */
import { recordedValue, newHistogram, type Histogram } from '../../report/histogram.js';
import { countsIndex, indexesAt, lowestValueAt } from './hdr-index.js';

export class MsHistogram {
  private counts: Uint32Array | undefined;
  private readonly h: Histogram;
  private readonly indexes: number;
  /** The smallest non-zero and the largest sample counted since the last fold (none: Infinity, 0). */
  private min = Infinity;
  private max = 0;

  /** `scale`: values per ms (1: whole ms; 100: hundredths of a ms). */
  constructor(readonly scale = 1) {
    this.h = newHistogram(scale);
    this.indexes = indexesAt(scale);
  }

  /** One sample of `ms` (any number: rounded to 1/scale ms and clamped to the range). */
  record(ms: number): void {
    const v = recordedValue(ms, this.scale);
    (this.counts ??= new Uint32Array(this.indexes))[countsIndex(v)]!++;
    if (v > this.max) this.max = v;
    if (v !== 0 && v < this.min) this.min = v;
  }

  /** The HDR histogram with every sample so far (counts are moved into it). */
  hdr(): Histogram {
    const c = this.counts;
    if (!c) return this.h;
    const { min, max, h } = this;
    const lo = min === Infinity ? -1 : countsIndex(min);
    const hi = max === 0 ? -1 : countsIndex(max);
    for (let i = 0; i < this.indexes; i++) {
      const n = c[i]!;
      if (n === 0) continue;
      // Each index's count at a value of its own; at the extremes', the extremes themselves.
      if (i === lo && i === hi && min !== max) {
        h.recordValueWithCount(min, 1);
        h.recordValueWithCount(max, n - 1);
      } else h.recordValueWithCount(i === lo ? min : i === hi ? max : lowestValueAt(i), n);
    }
    c.fill(0);
    this.min = Infinity;
    this.max = 0;
    return h;
  }
}
