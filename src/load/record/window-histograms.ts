/**
 * Per-window HDR histograms of one series (an operation's response time, a flow's turnaround …),
 * encoded as each window closes so only the open windows are held as counts (sample-counts.ts).
 * Samples come in time order on the target's clock; the two newest windows stay open, and a
 * sample for a window already encoded (a late webhook) is merged into it.
 */
import * as hdr from 'hdr-histogram-js';
import { recordedMs, decodeWindow, newHistogram, type Histogram } from '../../report/histogram.js';
import { encodeCounts } from './sparse-encoding.js';
import { SampleCounts } from './sample-counts.js';
import { WindowIndex } from './window-index.js';

/** One scratch histogram for the rare merge into a closed window (a fresh HDR histogram is ~80 kB). */
let scratch: Histogram | undefined;

/** `encoded` (a closed window) with one more sample `v`. */
function mergeInto(encoded: string, v: number): string {
  const h = (scratch ??= newHistogram());
  h.reset();
  if (encoded) h.add(decodeWindow(encoded));
  h.recordValue(v);
  return hdr.encodeIntoCompressedBase64(h);
}

export class WindowHistograms {
  /** Encoded windows; `""`: empty. */
  private readonly done: string[] = [];
  /** The two open windows' counts, window `i` in `open[i & 1]` (made at their first sample). */
  private readonly open: (SampleCounts | undefined)[] = [undefined, undefined];
  private newest = -1;

  private readonly index: WindowIndex;

  constructor(readonly windowMs: number) {
    this.index = new WindowIndex(windowMs);
  }

  record(atMs: number, ms: number): void {
    const i = this.index.of(atMs);
    if (i > this.newest) {
      this.newest = i;
      this.closeBefore(i - 1);
    }
    const v = recordedMs(ms);
    if (i < this.done.length) {
      this.done[i] = mergeInto(this.done[i]!, v);
      return;
    }
    (this.open[i & 1] ??= new SampleCounts()).add(v);
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
