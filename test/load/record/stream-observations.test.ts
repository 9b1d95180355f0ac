/**
 * The streamed answers a run against a URL keeps for `loadlab calibrate`
 * (load/record/stream-observations.ts): one row per completed stream with its times to 0.01 ms,
 * the run's own streams in flight averaged over its first to last token, and a bounded reservoir.
 */
import { describe, expect, it } from 'vitest';
import { RandomSource } from '../../../src/lib/random.js';
import { MAX_STREAM_SAMPLES, STREAM_COLUMNS, StreamObservations } from '../../../src/load/record/stream-observations.js';

const rowOf = (row: number[]) => Object.fromEntries(STREAM_COLUMNS.map((c, i) => [c, row[i]]));

describe('StreamObservations', () => {
  it('a stream: first and last token after its send, tokens from usage, gaps, and the streams in flight meanwhile', () => {
    const o = new StreamObservations(new RandomSource('s').stream('x'));
    o.opened(0); // A: 0 to 100
    o.opened(10); // B: 10 to 52 — in flight with A from 10 to 52
    o.ended({ sentMs: 10, atMs: [20, 30.25, 40, 52], usageTokens: 8, promptTokens: 12, maxTokens: 64 });
    o.closed(52);
    // A's tokens from 20 to 100: two streams until 52, one after: (32 × 2 + 48 × 1) / 80.
    o.ended({ sentMs: 0, atMs: [20, 60, 100], usageTokens: undefined, promptTokens: 3, maxTokens: undefined });
    o.closed(100);
    const r = o.result()!;
    expect(r.count).toBe(2);
    expect(rowOf(r.rows[0]!)).toEqual({
      sentMs: 10,
      firstMs: 10,
      lastMs: 42,
      tokens: 8,
      chunks: 4,
      promptTokens: 12,
      maxTokens: 64,
      itlP50Ms: 10.25,
      itlP90Ms: 12,
      inFlight: 2,
      inFlightSent: 2,
    });
    expect(rowOf(r.rows[1]!)).toMatchObject({ tokens: 3, chunks: 3, maxTokens: 0, itlP50Ms: 40, inFlight: 1.4, inFlightSent: 1 });
  });

  it('a stream without content is not kept; none at all: no section', () => {
    const o = new StreamObservations(new RandomSource('s').stream('x'));
    o.opened(0);
    o.ended({ sentMs: 0, atMs: [], usageTokens: undefined, promptTokens: 1, maxTokens: 16 });
    o.closed(5);
    expect(o.result()).toBeUndefined();
  });

  it('keeps at most MAX_STREAM_SAMPLES rows, a uniform sample, and counts every stream', () => {
    const o = new StreamObservations(new RandomSource('s').stream('x'));
    const n = MAX_STREAM_SAMPLES + 5000;
    for (let i = 0; i < n; i++) {
      o.opened(i);
      o.ended({ sentMs: i, atMs: [i + 0.5], usageTokens: 1, promptTokens: 1, maxTokens: 16 });
      o.closed(i + 1);
    }
    const r = o.result()!;
    expect(r.count).toBe(n);
    expect(r.rows.length).toBe(MAX_STREAM_SAMPLES);
    // A uniform sample: about a third of the later streams replaced earlier ones.
    const late = r.rows.filter((row) => row[0]! >= MAX_STREAM_SAMPLES).length;
    expect(late).toBeGreaterThan(2500);
    expect(late).toBeLessThan(4500);
  });
});
