import { describe, expect, it } from 'vitest';
import { inflateSync } from 'node:zlib';
import * as hdr from 'hdr-histogram-js';
import { HIGHEST_MS, newHistogram } from '../../../src/report/histogram.js';
import { SMALL_PAYLOAD } from '../../../src/load/record/sparse-encoding.js';
import { countsIndex, INDEXES, indexesAt, lowestValueAt } from '../../../src/load/record/hdr-index.js';
import { encodeSparse } from '../../helpers/encode-sparse.js';
import { smallDeflate } from '../../../src/load/record/small-deflate.js';
import { RandomSource } from '../../../src/lib/random.js';

function viaHdr(counts: Map<number, number>): string {
  const h = newHistogram();
  for (const [v, n] of counts) h.recordValueWithCount(v, n);
  return hdr.encodeIntoCompressedBase64(h);
}

/** The uncompressed V2 payload of an encoding. */
function payload(e: string): Buffer {
  return inflateSync(Buffer.from(e, 'base64').subarray(8));
}

/** Every (value, count) of a decoded histogram. */
function content(e: string): Array<[number, number]> {
  const h = hdr.decodeFromCompressedBase64(e, 32, false);
  const out: Array<[number, number]> = [];
  const it = h as unknown as { countsArrayIndex(v: number): number; getCountAtIndex(i: number): number; valueFromIndex(i: number): number };
  for (let i = 0, end = it.countsArrayIndex(h.maxValue); i <= end; i++) if (it.getCountAtIndex(i)) out.push([it.valueFromIndex(i), it.getCountAtIndex(i)]);
  return out;
}

describe('encodeCounts', () => {
  it('decodes to the histogram hdr-histogram-js encodes for the same samples; the same bytes from SMALL_PAYLOAD on', () => {
    const r = new RandomSource('sparse').stream('t');
    const shapes: Array<() => number> = [
      () => 0,
      () => Math.floor(r.next() * 3),
      () => Math.floor(r.next() * 2000),
      () => Math.floor(200 + r.next() * 5000),
      () => Math.floor(Math.exp(r.next() * 20)),
      () => HIGHEST_MS - Math.floor(r.next() * 10),
    ];
    let small = 0;
    for (let k = 0; k < 300; k++) {
      const shape = shapes[k % shapes.length]!;
      const counts = new Map<number, number>();
      const n = 1 + Math.floor(r.next() * (k % 7 === 0 ? 5000 : 60));
      for (let i = 0; i < n; i++) {
        const v = Math.min(HIGHEST_MS, shape());
        counts.set(v, (counts.get(v) ?? 0) + 1);
      }
      const e = encodeSparse(counts);
      const ref = viaHdr(counts);
      expect(payload(e).equals(payload(ref))).toBe(true);
      expect(content(e)).toEqual(content(ref));
      if (payload(e).length >= SMALL_PAYLOAD) expect(e).toBe(ref);
      else small++;
      // Once more: the cached answer is the same.
      expect(encodeSparse(new Map(counts))).toBe(e);
    }
    expect(small).toBeGreaterThan(50);
  });

  it('indexes values as HdrHistogram does', () => {
    const h = newHistogram() as unknown as { countsArrayIndex(v: number): number };
    for (const v of [0, 1, 1023, 1024, 2047, 2048, 2049, 4095, 4096, 123_456, 9_999_999, HIGHEST_MS]) expect(countsIndex(v)).toBe(h.countsArrayIndex(v));
  });

  it("gives each index's lowest value as HdrHistogram does, over the whole range", () => {
    const h = newHistogram() as unknown as { countsArrayIndex(v: number): number; valueFromIndex(i: number): number };
    expect(INDEXES).toBe(h.countsArrayIndex(HIGHEST_MS) + 1);
    for (let i = 0; i < INDEXES; i += 7) {
      expect(lowestValueAt(i)).toBe(h.valueFromIndex(i));
      expect(countsIndex(lowestValueAt(i))).toBe(i);
    }
  });

  it('at scale 100 (stream times, hundredths of a ms): indexes past 2^32 as HdrHistogram does, the same payload', () => {
    const top = HIGHEST_MS * 100;
    const h = newHistogram(100) as unknown as { countsArrayIndex(v: number): number; valueFromIndex(i: number): number };
    for (const v of [0, 620, 2047, 2048, 2 ** 32 - 1, 2 ** 32, 2 ** 32 + 5, 2 ** 33 + 12_345, 5e10, top])
      expect(countsIndex(v), String(v)).toBe(h.countsArrayIndex(v));
    const n = indexesAt(100);
    expect(n).toBe(h.countsArrayIndex(top) + 1);
    for (let i = 0; i < n; i += 13) expect(countsIndex(lowestValueAt(i))).toBe(i);
    const counts = new Map<number, number>([
      [620, 190],
      [5050, 10],
      [2 ** 32 + 7, 2],
      [top, 1],
    ]);
    const ref = newHistogram(100);
    for (const [v, c] of counts) ref.recordValueWithCount(v, c);
    const e = encodeSparse(counts, 100);
    expect(payload(e).equals(payload(hdr.encodeIntoCompressedBase64(ref)))).toBe(true);
    expect(content(e)).toEqual(content(hdr.encodeIntoCompressedBase64(ref)));
  });

  it('is empty for no samples', () => {
    expect(encodeSparse(new Map())).toBe('');
  });
});

describe('smallDeflate', () => {
  it('makes zlib streams any inflater reads back', () => {
    const r = new RandomSource('deflate').stream('t');
    for (let k = 0; k < 200; k++) {
      const n = Math.floor(r.next() * (k < 100 ? 200 : 5000));
      const alphabet = 1 + Math.floor(r.next() * 256);
      const data = Uint8Array.from({ length: n }, () => (r.next() < 0.5 ? 0 : Math.floor(r.next() * alphabet)));
      expect(inflateSync(smallDeflate(data)).equals(Buffer.from(data))).toBe(true);
    }
    expect(inflateSync(smallDeflate(new Uint8Array(0))).length).toBe(0);
    expect(inflateSync(smallDeflate(new Uint8Array(1000).fill(7))).equals(Buffer.alloc(1000, 7))).toBe(true);
  });
});
