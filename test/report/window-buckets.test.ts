/**
 * metrics.om reads per-window encodings without building HDR histograms (window-buckets.ts); its
 * buckets and sum must be those of the decoded histogram (histogram-buckets.ts, the live runner's
 * rule), for both encoders a report holds: hdr-histogram-js's (zlib) and the recorder's sparse one
 * (its own small deflate for small windows).
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { DURATION_BUCKETS_S } from '../../src/contract/metric-names.js';
import { encodeSparse } from '../helpers/encode-sparse.js';
import { encode, newHistogram, record } from '../../src/report/histogram.js';
import { bucketCounts } from '../../src/report/histogram-buckets.js';
import { WindowBucketCounter } from '../../src/report/openmetrics/window-buckets.js';

const BOUNDS_MS = DURATION_BUCKETS_S.map((s) => s * 1000);

/** Values around the bounds (either side of each, within HDR's resolution) and across the range. */
const value = fc.oneof(
  fc.integer({ min: 0, max: 3000 }),
  fc.constantFrom(...BOUNDS_MS).chain((b) => fc.integer({ min: Math.floor(b * 0.995), max: Math.ceil(b * 1.005) })),
  fc.integer({ min: 0, max: 7 * 24 * 3600 * 1000 }),
);

function expected(values: number[]) {
  const h = newHistogram();
  for (const v of values) record(h, v);
  const e = encode(h);
  const { cumulative, sumMs } = bucketCounts(e, BOUNDS_MS);
  return { e, cumulative, sumMs, count: values.length };
}

function cumulativeOf(perBucket: Float64Array): number[] {
  let acc = 0;
  return [...perBucket].slice(0, -1).map((c) => (acc += c));
}

describe('WindowBucketCounter', () => {
  test('hdr-histogram-js encodings: the same buckets, count and sum as the decoded histogram', () => {
    fc.assert(
      fc.property(fc.array(value, { minLength: 1, maxLength: 300 }), (values) => {
        const x = expected(values);
        const got = new WindowBucketCounter(BOUNDS_MS).count(x.e.hdr);
        expect(cumulativeOf(got.perBucket)).toEqual(x.cumulative);
        expect(got.count).toBe(x.count);
        expect(got.perBucket.reduce((a, b) => a + b, 0)).toBe(x.count);
        expect(got.sumMs).toBe(x.sumMs);
      }),
      { numRuns: 150 },
    );
  });

  test("the recorder's sparse encodings (small and zlib-deflated) read the same", () => {
    fc.assert(
      fc.property(fc.array(value, { minLength: 1, maxLength: 400 }), (values) => {
        const counts = new Map<number, number>();
        for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
        const x = expected(values);
        const got = new WindowBucketCounter(BOUNDS_MS).count(encodeSparse(counts));
        expect(cumulativeOf(got.perBucket)).toEqual(x.cumulative);
        expect(got.sumMs).toBe(x.sumMs);
      }),
      { numRuns: 150 },
    );
  });

  test('an empty window is all zeros; a value above the last bound counts only in +Inf; a bad encoding is an error', () => {
    const c = new WindowBucketCounter(BOUNDS_MS);
    expect(c.count('')).toMatchObject({ count: 0, sumMs: 0 });
    const got = c.count(expected([2_000_000]).e.hdr);
    expect([...got.perBucket].slice(0, -1).every((n) => n === 0)).toBe(true);
    expect(got.perBucket.at(-1)).toBe(1);
    expect(() => c.count(Buffer.from('not a histogram at all').toString('base64'))).toThrow(/not an HdrHistogram V2/);
  });
});
