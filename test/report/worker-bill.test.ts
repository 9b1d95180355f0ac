/** Which workers hold the active slots, and what flex workers are billed (report/worker-bill.ts, report/prices.ts). */
import { describe, expect, test } from 'vitest';
import { costOf } from '../../src/report/prices.js';
import { billWorkers, type WorkerLifetime } from '../../src/report/worker-bill.js';

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
      life('b', 1_000, 5_000, 2_000), // flex: 1 + 2 s billed = 3 s (throttled time is not billed)
      life('c', 10_000, null, 1_200), // starts as a stops (same ms): takes the freed slot
      life('d', 11_000, 20_000, 2_001), // flex: 3.001 s → 4 s
    ];
    const bill = billWorkers(lives, 1, 30_000);
    expect(bill.activeSeconds).toBe(30);
    expect(bill.flexSeconds).toBe(3 + 4);
    expect(bill.workersStarted).toBe(4);
    expect(bill.secondsByState.throttled).toBe(2);
  });

  test('a flex worker idle when the run ends is billed to the end of its idle timeout', () => {
    const bill = billWorkers([life('a', 0, null, 2_000, { state: 'idle', sinceMs: 9_000 })], 0, 10_000, 5_000);
    // 1 s starting + 2 s running, then idle from 9 s: the idle timeout stops it at 14 s, 4 s after the run's end.
    expect(bill.flexSeconds).toBe(Math.ceil((1_000 + 2_000 + 4_000) / 1000));
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
