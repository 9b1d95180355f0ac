import { describe, expect, it } from 'vitest';
import * as hdr from 'hdr-histogram-js';
import { HIGHEST_MS, newHistogram } from '../../../src/report/histogram.js';
import { countsIndex, encodeSparse } from '../../../src/load/record/sparse-encoding.js';
import { RandomSource } from '../../../src/lib/random.js';

function viaHdr(counts: Map<number, number>): string {
  const h = newHistogram();
  for (const [v, n] of counts) h.recordValueWithCount(v, n);
  return hdr.encodeIntoCompressedBase64(h);
}

describe('encodeSparse', () => {
  it('gives the bytes hdr-histogram-js gives for the same samples', () => {
    const r = new RandomSource('sparse').stream('t');
    const shapes: Array<() => number> = [
      () => 0,
      () => Math.floor(r.next() * 3),
      () => Math.floor(r.next() * 2000),
      () => Math.floor(200 + r.next() * 5000),
      () => Math.floor(Math.exp(r.next() * 20)),
      () => HIGHEST_MS - Math.floor(r.next() * 10),
    ];
    for (let k = 0; k < 300; k++) {
      const shape = shapes[k % shapes.length]!;
      const counts = new Map<number, number>();
      const n = 1 + Math.floor(r.next() * (k % 7 === 0 ? 5000 : 60));
      for (let i = 0; i < n; i++) {
        const v = Math.min(HIGHEST_MS, shape());
        counts.set(v, (counts.get(v) ?? 0) + 1);
      }
      const e = encodeSparse(counts);
      expect(e).toBe(viaHdr(counts));
      // Once more: the cached answer is the same.
      expect(encodeSparse(new Map(counts))).toBe(e);
    }
  });

  it('indexes values as HdrHistogram does', () => {
    const h = newHistogram() as unknown as { countsArrayIndex(v: number): number };
    for (const v of [0, 1, 1023, 1024, 2047, 2048, 2049, 4095, 4096, 123_456, 9_999_999, HIGHEST_MS]) expect(countsIndex(v)).toBe(h.countsArrayIndex(v));
  });

  it('is empty for no samples', () => {
    expect(encodeSparse(new Map())).toBe('');
  });
});
