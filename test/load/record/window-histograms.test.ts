/**
 * Per-window histograms as the report stores them: each window decodes to exactly the samples
 * recorded in it (whatever the values: 0, above 65 535 ms, the top of the range), windows without
 * samples are empty, and a sample for a window already closed is merged into it.
 */
import { describe, expect, it } from 'vitest';
import { decodeWindow, encode, HIGHEST_MS, newHistogram } from '../../../src/report/histogram.js';
import { WindowHistograms } from '../../../src/load/record/window-histograms.js';
import { RandomSource } from '../../../src/lib/random.js';

/** Every (value, count) of an encoded window, from the HDR histogram it decodes to. */
function content(e: string): Map<number, number> {
  const out = new Map<number, number>();
  if (!e) return out;
  const h = decodeWindow(e) as unknown as {
    countsArrayIndex(v: number): number;
    getCountAtIndex(i: number): number;
    valueFromIndex(i: number): number;
    maxValue: number;
  };
  for (let i = 0, end = h.countsArrayIndex(h.maxValue); i <= end; i++) if (h.getCountAtIndex(i)) out.set(h.valueFromIndex(i), h.getCountAtIndex(i));
  return out;
}

/** `samples` as HDR would bucket them (3 significant digits), by value → count. */
function bucketed(samples: number[]): Map<number, number> {
  const h = newHistogram();
  for (const v of samples) h.recordValue(v);
  return content(encode(h).hdr);
}

describe('WindowHistograms', () => {
  it('each window holds exactly its samples, in time order with gaps and values from 0 to the top of the range', () => {
    const r = new RandomSource('windows').stream('t');
    const w = new WindowHistograms(1000);
    const expected: number[][] = [];
    for (let t = 0; t < 40_000; t += Math.floor(r.next() * 700)) {
      const i = Math.floor(t / 1000);
      // Some windows are skipped; values span the plain-array range and beyond it.
      if (i % 7 === 3) continue;
      const v = [0, Math.floor(r.next() * 3000), 65_535, 65_536, Math.floor(r.next() * 5e6), HIGHEST_MS][Math.floor(r.next() * 6)]!;
      (expected[i] ??= []).push(v);
      w.record(t, v);
    }
    const n = 41;
    const got = w.result(n);
    expect(got).toHaveLength(n);
    for (let i = 0; i < n; i++) {
      const want = expected[i] ?? [];
      if (want.length === 0) expect(got[i]).toBe('');
      else expect(content(got[i]!)).toEqual(bucketed(want));
    }
  });

  it('a late sample is merged into its closed window', () => {
    const w = new WindowHistograms(1000);
    w.record(500, 10);
    w.record(5500, 20);
    w.record(700, 30);
    const got = w.result(6);
    expect(content(got[0]!)).toEqual(bucketed([10, 30]));
    expect(content(got[5]!)).toEqual(bucketed([20]));
    expect(got.slice(1, 5)).toEqual(['', '', '', '']);
  });

  it('at scale 100 a window holds hundredths of a ms, a late sample merged in at that scale', () => {
    const w = new WindowHistograms(1000, 100);
    w.record(500, 6.2);
    w.record(5500, 6.21);
    w.record(700, 6.19);
    const got = w.result(6);
    const at100 = (ms: number[]) => {
      const h = newHistogram(100);
      for (const v of ms) h.recordValue(Math.round(v * 100));
      return content(encode(h, 100).hdr);
    };
    expect(content(got[0]!)).toEqual(at100([6.2, 6.19]));
    expect(content(got[5]!)).toEqual(at100([6.21]));
  });
});
