/** One rule for a duration in whole ms: sampled job times and histogram values alike. */
import { describe, expect, test } from 'vitest';
import { clampMs } from '../../src/lib/clamp-ms.js';
import { HIGHEST_MS, recordedValue } from '../../src/report/histogram.js';

describe('clampMs', () => {
  test('rounds; negative, zero and NaN give 0; no upper bound unless given', () => {
    expect([1.4, 1.5, 0.4, 0, -3, Number.NaN, 1e12].map((x) => clampMs(x))).toEqual([1, 2, 0, 0, 0, 0, 1e12]);
  });
  test('a histogram value stays in the trackable range', () => {
    expect([HIGHEST_MS + 1, HIGHEST_MS - 0.2, -0.4, 12.5].map((ms) => recordedValue(ms))).toEqual([HIGHEST_MS, HIGHEST_MS, 0, 13]);
    // At scale 100 (stream times): hundredths of a ms, the range still a week.
    expect([6.2, 6.2000000001, 6.204, HIGHEST_MS + 1, -0.4].map((ms) => recordedValue(ms, 100))).toEqual([620, 620, 620, HIGHEST_MS * 100, 0]);
    expect(clampMs(5e12, 100)).toBe(100);
  });
});
