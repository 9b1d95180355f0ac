/**
 * Per-window HDR histograms of one series (an operation's response time, a flow's turnaround …),
 * encoded as each window closes so only the open windows are held as counts (sample-counts.ts).
 * Samples come in time order on the target's clock; the two newest windows stay open, and a
 * sample for a window already encoded (a late webhook) is merged into it.
 */
import * as hdr from 'hdr-histogram-js';
import { recordedValue, decodeWindow, newHistogram, type Histogram } from '../../report/histogram.js';
import { encodeCounts } from './sparse-encoding.js';
import { SampleCounts } from './sample-counts.js';
import { WindowIndex } from './window-index.js';

/** One scratch histogram per scale for the rare merge into a closed window (a fresh HDR histogram is ~80 kB). */
const scratch = new Map<number, Histogram>();

/** `encoded` (a closed window, values ms × `scale`) with `n` more samples of value `v`. */
function mergeInto(encoded: string, v: number, n: number, scale: number): string {
  let h = scratch.get(scale);
  if (!h) scratch.set(scale, (h = newHistogram(scale)));
  h.reset();
  if (encoded) h.add(decodeWindow(encoded));
  h.recordValueWithCount(v, n);
  return hdr.encodeIntoCompressedBase64(h);
}

export class WindowHistograms {
  /** Encoded windows; `""`: empty. */
  private readonly done: string[] = [];
  /** The two open windows' counts, window `i` in `open[i & 1]` (made at their first sample). */
  private readonly open: (SampleCounts | undefined)[] = [undefined, undefined];
  private newest = -1;

  private readonly index: WindowIndex;

  /** `scale`: values per ms (1: whole ms; 100: hundredths of a ms). */
  constructor(
    readonly windowMs: number,
    readonly scale = 1,
  ) {
    this.index = new WindowIndex(windowMs);
  }

  /** `n` samples (default 1) of `ms` (rounded to 1/scale ms) in the window of `atMs`. */
  record(atMs: number, ms: number, n = 1): void {
    const i = this.index.of(atMs);
    if (i > this.newest) {
      this.newest = i;
      this.closeBefore(i - 1);
    }
    const v = recordedValue(ms, this.scale);
    if (i < this.done.length) {
      this.done[i] = mergeInto(this.done[i]!, v, n, this.scale);
      return;
    }
    const c = (this.open[i & 1] ??= new SampleCounts(this.scale));
    if (n === 1) c.add(v);
    else c.addCount(v, n);
  }

  /** Encodes every open window before index `i`. */
  private closeBefore(i: number): void {
    for (let k = this.done.length; k < i; k++) {
      const c = this.open[k & 1];
      if (c === undefined || c.size === 0) this.done.push('');
      else {
        this.done.push(encodeCounts(c));
        c.clear();
      }
    }
  }

  /** Windows 0 to `n - 1`, encoded (closed: later samples for them are merged in). */
  result(n: number): string[] {
    this.closeBefore(n);
    return this.done.slice(0, n).concat(new Array<string>(Math.max(0, n - this.done.length)).fill(''));
  }
}
