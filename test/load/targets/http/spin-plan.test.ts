/**
 * The HTTP target's sleep-then-spin plan: the loop spins at most SPIN_SHARE of any wait (so its
 * CPU follows the rate), at most SPIN_MS before an event, and at once for an event too near for
 * the alarm or the one the alarm rang for.
 */
import { describe, expect, test } from 'vitest';
import { alarmLead, MIN_ALARM_MS, SPIN_MS, SPIN_SHARE, spinsNow } from '../../../../src/load/targets/http/spin-plan.js';

describe('spin plan', () => {
  test('at 1 000 arrivals/s (1 ms apart) the loop sleeps 0.98 ms and spins 0.02 ms per arrival', () => {
    expect(SPIN_SHARE).toBe(0.02);
    expect(alarmLead(101, 100)).toBeCloseTo(0.02, 9);
    expect(spinsNow(101, 100, 100)).toBe(false);
  });
  test('at 10 arrivals/s (100 ms apart) the spin is capped at SPIN_MS', () => {
    expect(alarmLead(200, 100)).toBe(SPIN_MS);
    expect(alarmLead(120, 100)).toBeCloseTo(0.4, 9);
  });
  test('an event nearer than an alarm round trip is spun for at once; so is the one the alarm rang for', () => {
    expect(spinsNow(100 + MIN_ALARM_MS / 2, 100, -Infinity)).toBe(true);
    expect(spinsNow(100.5, 100.3, 100.5)).toBe(true);
    expect(spinsNow(101.5, 100.6, 100.5)).toBe(false);
  });
  test('an event already due has no lead (the loop runs it now)', () => {
    expect(alarmLead(99, 100)).toBe(0);
    expect(spinsNow(99, 100, -Infinity)).toBe(true);
  });
});
