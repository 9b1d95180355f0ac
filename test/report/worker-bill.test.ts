/** Which workers hold the active slots, and what flex workers are billed (report/worker-bill.ts, report/prices.ts). */
import { describe, expect, test } from 'vitest';
import { costOf } from '../../src/report/prices.js';
import { billedStates, billWorkers, type WorkerLifetime } from '../../src/report/worker-bill.js';

const life = (workerId: string, startMs: number, stopMs: number | null, running: number, alive?: WorkerLifetime['alive']): WorkerLifetime => ({
  workerId,
  startMs,
  stopMs,
  msByState: { initializing: 1000, running, throttled: 500 },
  ...(alive ? { alive } : {}),
});

describe('billWorkers', () => {
  test('workersMin slots go to the first workers alive; a stopped active worker frees its slot for the next start', () => {
    const lives = [
      life('a', 0, 10_000, 8_000), // active
      life('b', 1_000, 5_000, 2_000), // flex: 2 s running billed (initializing and throttled time are not)
      life('c', 10_000, null, 1_200), // starts as a stops (same ms): takes the freed slot
      life('d', 11_000, 20_000, 2_001), // flex: 2.001 s → 3 s
    ];
    const bill = billWorkers(lives, 1, 30_000);
    expect(bill.activeSeconds).toBe(30);
    expect(bill.flexSeconds).toBe(2 + 3);
    expect(bill.workersStarted).toBe(4);
    expect(bill.secondsByState.throttled).toBe(2);
  });

  test('a flex worker idle when the run ends is billed to the end of its idle timeout', () => {
    const a = life('a', 0, null, 2_000, { state: 'idle', sinceMs: 9_000 });
    // 2 s running, then idle from 9 s: the idle timeout stops it at 14 s, 4 s after the run's end (initializing unbilled).
    expect(billWorkers([a], 0, 10_000, 5_000).flexSeconds).toBe(Math.ceil((2_000 + 4_000) / 1000));
    // The 1 s initializing too when the rule bills it.
    expect(billWorkers([a], 0, 10_000, 5_000, true).flexSeconds).toBe(Math.ceil((1_000 + 2_000 + 4_000) / 1000));
  });

  test("RunPod's workers page, since 2026-06-29: time initializing is not billed; billing.initializing: true bills it (the pricing page's start time)", () => {
    const w: WorkerLifetime = { workerId: 'w', startMs: 0, stopMs: 17_000, msByState: { initializing: 10_000, running: 2_000, idle: 5_000 } };
    expect(billWorkers([w], 0, 17_000).flexSeconds).toBe(7);
    expect(billWorkers([w], 0, 17_000, 0, true).flexSeconds).toBe(17);
  });

  test("RunPod's pricing page: throttled and unhealthy workers are not billed", () => {
    const w: WorkerLifetime = { workerId: 'w', startMs: 0, stopMs: 20_000, msByState: { throttled: 4_000, unhealthy: 6_000, running: 3_000, idle: 7_000 } };
    expect(billWorkers([w], 0, 20_000).flexSeconds).toBe(10);
    expect(billWorkers([w], 0, 20_000, 0, true).flexSeconds).toBe(10);
    expect(billedStates(false)).toEqual(['running', 'idle']);
    expect(billedStates(true)).toEqual(['running', 'idle', 'initializing']);
  });

  test("RunPod's pricing page: a worker's time from start to stop is rounded up to the second", () => {
    const w = (id: string, ms: number): WorkerLifetime => ({ workerId: id, startMs: 0, stopMs: ms, msByState: { running: ms } });
    expect(billWorkers([w('a', 1)], 0, 1_000).flexSeconds).toBe(1);
    expect(billWorkers([w('a', 1_000)], 0, 1_000).flexSeconds).toBe(1);
    expect(billWorkers([w('a', 1_001)], 0, 2_000).flexSeconds).toBe(2);
    // Rounded per worker, not over the sum: two 0.5 s workers bill 2 s.
    expect(billWorkers([w('a', 500), w('b', 500)], 0, 1_000).flexSeconds).toBe(2);
  });

  test('cost per run, per hour and per 1 000 jobs', () => {
    const c = costOf(
      { activeSeconds: 100, flexSeconds: 50, workersStarted: 2, secondsByState: {} },
      { flexPerSec: 0.002, activePerSec: 0.001 },
      1_800_000,
      400,
    );
    expect(c.total).toBeCloseTo(0.2, 12);
    expect(c.perHour).toBeCloseTo(0.4, 12);
    expect(c.per1000Jobs).toBeCloseTo(0.5, 12);
    expect(
      costOf({ activeSeconds: 1, flexSeconds: 0, workersStarted: 1, secondsByState: {} }, { flexPerSec: 1, activePerSec: 1 }, 1000, 0).per1000Jobs,
    ).toBeNull();
  });
});
