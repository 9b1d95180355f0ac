/**
 * One histogram window's samples as counts by HDR counts-array index (hdr-index.ts), for its
 * sparse encoding when it closes (sparse-encoding.ts): one increment per sample into a plain
 * array, no hashing. It remembers which indexes it holds, so clearing it for the next window
 * touches only those.
 */
import { HIGHEST_MS } from '../../report/histogram.js';
import { countsIndex, indexesAt } from './hdr-index.js';

let scratch = new Uint32Array(1024);

export class SampleCounts {
  /** Count per index. */
  readonly counts: Uint32Array;
  /** The largest value it may count (HIGHEST_MS × scale): its encoding's highest trackable value. */
  readonly highest: number;
  /** The indexes with a count, in the order first seen: the first `size`. */
  private readonly seen: number[] = [];
  size = 0;

  /** `scale`: values are ms × scale (1: whole ms; 100: hundredths of a ms). */
  constructor(scale = 1) {
    this.counts = new Uint32Array(indexesAt(scale));
    this.highest = HIGHEST_MS * scale;
  }

  /** A sample of value `v` (an integer in 0 … highest). */
  add(v: number): void {
    const i = countsIndex(v);
    if (this.counts[i]!++ === 0) this.seen[this.size++] = i;
  }

  /** `n` samples of value `v`. */
  addCount(v: number, n: number): void {
    const i = countsIndex(v);
    if (this.counts[i] === 0) this.seen[this.size++] = i;
    this.counts[i]! += n;
  }

  /** The indexes with a count, ascending (a view of a scratch array: read it before the next call). */
  indexes(): Uint32Array {
    if (scratch.length < this.size) scratch = new Uint32Array(this.size * 2);
    const out = scratch.subarray(0, this.size);
    for (let k = 0; k < this.size; k++) out[k] = this.seen[k]!;
    return out.sort();
  }

  clear(): void {
    const { counts, seen } = this;
    for (let k = 0; k < this.size; k++) counts[seen[k]!] = 0;
    this.size = 0;
  }
}
