/** The progress line of `loadlab run`: Progress values in, the exact line out; at most 99 characters. */
import { describe, expect, test } from 'vitest';
import { count, duration, progressLine } from '../../src/cli/progress/line.js';
import type { Progress } from '../../src/load/run-scenario.js';

const p = (over: Partial<Progress> = {}): Progress => ({
  phase: 'traffic',
  nowMs: 0,
  wallMs: 0,
  durationMs: 86_400_000,
  drainMs: 120_000,
  requests: 0,
  limited: 0,
  queueDepth: 0,
  workers: 0,
  ...over,
});

describe('progressLine', () => {
  test('the start: 0 %, ETA not known yet', () => {
    expect(progressLine(p({ wallMs: 400 }))).toBe('traffic   0%  wall 0s  ETA --  requests 0  429s 0  queue 0  workers 0');
  });

  test('mid-run: % of durationMs, ETA to its end at the mean pace so far (not the drain allowance), counts shortened', () => {
    // A quarter of the 86 400 s in 25 s of wall: three quarters left take 75 s more.
    const line = progressLine(p({ nowMs: 21_600_000, wallMs: 25_000, requests: 1_234_567, limited: 12_345, queueDepth: 1234, workers: 12 }));
    expect(line).toBe('traffic  25%  wall 25s  ETA 1m15s  requests 1.2M  429s 12.3k  queue 1 234  workers 12');
  });

  test("a long drain allowance is not in the traffic phase's ETA", () => {
    const line = progressLine(p({ nowMs: 15_000, wallMs: 15_000, durationMs: 30_000, drainMs: 600_000 }));
    expect(line).toBe('traffic  50%  wall 15s  ETA 15s  requests 0  429s 0  queue 0  workers 0');
  });

  test('the drain: 100 %, the ETA an upper bound (it ends when the last session does); a target that cannot see the endpoint shows --', () => {
    const line = progressLine(
      p({ phase: 'drain', nowMs: 60_000, wallMs: 62_000, durationMs: 60_000, drainMs: 30_000, requests: 900, queueDepth: undefined, workers: undefined }),
    );
    expect(line).toBe('drain   100%  wall 1m02s  ETA ≤31s  requests 900  429s 0  queue --  workers --');
  });

  test('the largest values still fit in 100 columns', () => {
    const line = progressLine(p({ nowMs: 1, wallMs: 400_000_000, requests: 999_999_999, limited: 999_999_999, queueDepth: 999_999, workers: 999_999 }));
    expect(line.length).toBeLessThanOrEqual(99);
    expect(line).toBe('traffic   0%  wall 111h06m  ETA >999h  requests 999.9M  429s 999.9M  queue 999.9k  workers 999.9k');
  });

  test('durations and counts', () => {
    expect([
      duration(999),
      duration(59_999),
      duration(60_000),
      duration(3_599_999),
      duration(3_600_000),
      duration(90_061_000),
      duration(3_600_000_000),
    ]).toEqual(['0s', '59s', '1m00s', '59m59s', '1h00m', '25h01m', '>999h']);
    expect([count(0), count(999), count(1000), count(9999), count(10_000), count(999_999), count(1_000_000), count(2_500_000_000)]).toEqual([
      '0',
      '999',
      '1 000',
      '9 999',
      '10.0k',
      '999.9k',
      '1.0M',
      '2.5G',
    ]);
  });
});
