/**
 * Rate limiters (spec §8, FACTS "Errors and limits"): sliding windows never hold more than the
 * limit in any window-long interval; fixed windows reset at multiples of the window. Exact
 * boundaries in virtual ms, then the per-operation `Limits` on top (concurrency first, scale,
 * the per-worker floor, off switch).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { endpointConfig, type EndpointConfigInput } from '../../src/contract/endpoint-config.js';
import { Limits } from '../../src/sim/limits.js';
import { FixedWindow, SlidingWindow, type RateLimiter } from '../../src/sim/rate-limiter.js';

const W = 10_000;

/** Which of the requests at `times` are accepted. */
function accepts(l: RateLimiter, limit: number, times: number[]): boolean[] {
  return times.map((t) => l.tryAcquire(t, limit));
}

describe('SlidingWindow', () => {
  it('counts requests in (t - window, t]: a request exactly one window later is free again', () => {
    const l = new SlidingWindow(W);
    expect(accepts(l, 3, [0, 0, 9_999, 9_999])).toEqual([true, true, true, false]);
    // at 9 999 the window is (−1, 9 999]: all three count. At 10 000 it is (0, 10 000]: both 0s drop out.
    expect(l.count(9_999)).toBe(3);
    expect(l.count(10_000)).toBe(1);
    expect(accepts(l, 3, [10_000, 10_000, 10_000])).toEqual([true, true, false]);
    // 19 999 is exactly one window after 9 999.
    expect(accepts(l, 3, [19_998, 19_999])).toEqual([false, true]);
  });

  it('a refused request does not use up the budget', () => {
    const l = new SlidingWindow(W);
    expect(accepts(l, 1, [0, 1, 2, 9_999])).toEqual([true, false, false, false]);
    expect(l.count(9_999)).toBe(1);
    expect(accepts(l, 1, [10_000])).toEqual([true]);
  });

  it('follows a limit that changes between requests (the per-worker floor)', () => {
    const l = new SlidingWindow(W);
    expect(accepts(l, 2, [0, 1, 2])).toEqual([true, true, false]);
    expect(accepts(l, 4, [3, 4, 5])).toEqual([true, true, false]);
    expect(accepts(l, 2, [6])).toEqual([false]);
  });

  it('never holds more than the limit in any window, and refuses only when the window is full (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 5 }), fc.array(fc.integer({ min: 0, max: 40_000 }), { maxLength: 120 }), (limit, raw) => {
        const times = [...raw].sort((a, b) => a - b);
        const ok = accepts(new SlidingWindow(W), limit, times);
        const acc = times.filter((_, i) => ok[i]);
        // any interval [t, t + W): the densest ones start at an accepted request
        for (const t of acc) expect(acc.filter((x) => x >= t && x < t + W).length).toBeLessThanOrEqual(limit);
        times.forEach((t, i) => {
          if (!ok[i]) expect(acc.filter((x) => x > t - W && x <= t).length).toBe(limit);
        });
      }),
      { seed: 7, numRuns: 300 },
    );
  });
});

describe('FixedWindow', () => {
  it('resets at multiples of the window, so a burst may straddle a boundary', () => {
    const l = new FixedWindow(W);
    expect(accepts(l, 3, [0, 1, 9_999, 9_999])).toEqual([true, true, true, false]);
    expect(l.count(9_999)).toBe(3);
    expect(l.count(10_000)).toBe(0);
    // a fresh window at 10 000: six requests within 2 ms (9 999 .. 10 000) are accepted in all
    expect(accepts(l, 3, [10_000, 10_000, 10_000, 10_001, 19_999])).toEqual([true, true, true, false, false]);
    expect(accepts(l, 3, [20_000])).toEqual([true]);
  });

  it('a refused request does not use up the budget', () => {
    const l = new FixedWindow(W);
    expect(accepts(l, 2, [5, 6, 7, 8])).toEqual([true, true, false, false]);
    expect(l.count(9_000)).toBe(2);
  });

  it('never holds more than the limit in an aligned window, and refuses only when it is full (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 5 }), fc.array(fc.integer({ min: 0, max: 40_000 }), { maxLength: 120 }), (limit, raw) => {
        const times = [...raw].sort((a, b) => a - b);
        const ok = accepts(new FixedWindow(W), limit, times);
        const perWindow = new Map<number, number>();
        times.forEach((t, i) => {
          const k = Math.floor(t / W);
          if (ok[i]) perWindow.set(k, (perWindow.get(k) ?? 0) + 1);
          else expect(perWindow.get(k)).toBe(limit);
        });
        for (const n of perWindow.values()) expect(n).toBeLessThanOrEqual(limit);
      }),
      { seed: 7, numRuns: 300 },
    );
  });
});

describe('Limits (per operation)', () => {
  const limits = (l: EndpointConfigInput['limits']) => new Limits(endpointConfig({ id: 'ep', limits: l }).limits);

  it('checks concurrency before rate, so a concurrency 429 keeps the rate budget', () => {
    const l = limits({ operations: { cancel: { rate: 2, concurrency: 1 } } });
    expect(l.admit('cancel', 0, 0)).toBeUndefined();
    expect(l.admit('cancel', 0, 0)).toBe('concurrency');
    l.release('cancel');
    expect(l.admit('cancel', 1, 0)).toBeUndefined();
    l.release('cancel');
    expect(l.admit('cancel', 2, 0)).toBe('rate');
    expect(l.snapshot('cancel', 2)).toMatchObject({ rate: 2, concurrency: 1, windowCount: 2, inFlight: 0, peakInFlight: 1 });
  });

  it('uses the documented defaults: /purge-queue 2 per 10 s, no concurrency limit', () => {
    const l = limits({});
    expect([l.admit('purge-queue', 0, 0), l.admit('purge-queue', 0, 0), l.admit('purge-queue', 9_999, 0)]).toEqual([undefined, undefined, 'rate']);
    expect(l.admit('purge-queue', 10_000, 0)).toBeUndefined();
    expect(l.snapshot('purge-queue', 10_000)).toMatchObject({ rate: 2, concurrency: null, inFlight: 3 });
  });

  it('scales every limit, and null means unlimited', () => {
    const l = limits({ scale: 2, operations: { retry: { rate: 3, concurrency: null } } });
    expect(l.snapshot('retry', 0)).toMatchObject({ rate: 6, concurrency: null });
    expect(l.snapshot('run', 0)).toMatchObject({ rate: 2000, concurrency: 400 });
    const off = limits({ operations: { health: { rate: null } } });
    for (let i = 0; i < 5000; i++) expect(off.admit('health', 0, 0)).toBeUndefined();
  });

  it('raises the rate to running workers × perWorkerRate when that is higher', () => {
    const l = limits({ perWorkerRate: 3, operations: { status: { rate: 5, concurrency: null } } });
    expect(l.effectiveRate('status', 1)).toBe(5);
    expect(l.effectiveRate('status', 4)).toBe(12);
    const admitted = (workers: number) => {
      let n = 0;
      while (l.admit('status', 0, workers) === undefined) n++;
      return n;
    };
    expect(admitted(4)).toBe(12);
  });

  it('with enabled: false admits everything but still counts what is in flight', () => {
    const l = limits({ enabled: false, operations: { requests: { rate: 1, concurrency: 1 } } });
    for (let i = 0; i < 50; i++) expect(l.admit('requests', 0, 0)).toBeUndefined();
    expect(l.snapshot('requests', 0).peakInFlight).toBe(50);
    expect(l.queueFull(1_000_000, 1)).toBe(false);
  });

  it('throttles the queue only past both queueMin and workersMax × queuePerWorker', () => {
    const l = limits({ queueMin: 50, queuePerWorker: 10 });
    expect(l.queueFull(50, 1)).toBe(false);
    expect(l.queueFull(51, 1)).toBe(true);
    expect(l.queueFull(60, 6)).toBe(false);
    expect(l.queueFull(61, 6)).toBe(true);
  });
});
