/**
 * A recording front for the run's HDR histograms: whole milliseconds below 65 536 are counted in
 * a plain array (one increment per sample, no HDR index arithmetic on the hot path), larger ones
 * go straight into the HDR histogram. `hdr()` folds the counts in; the result has the same counts,
 * min and max as recording every sample into HDR directly, so report.json does not change.
 */
import { newHistogram, record, type Histogram } from '../../report/histogram.js';

const DIRECT = 65_536;

export class MsHistogram {
  private counts: Uint32Array | undefined;
  private readonly h: Histogram = newHistogram();

  record(ms: number): void {
    const v = ms <= 0 ? 0 : Math.round(ms);
    if (v < DIRECT) (this.counts ??= new Uint32Array(DIRECT))[v]!++;
    else record(this.h, v);
  }

  /** The HDR histogram with every sample so far (counts are moved into it). */
  hdr(): Histogram {
    const c = this.counts;
    if (c) {
      for (let v = 0; v < DIRECT; v++) if (c[v]) this.h.recordValueWithCount(v, c[v]!);
      c.fill(0);
    }
    return this.h;
  }
}
