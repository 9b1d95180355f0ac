/**
 * Headroom's peak rate is counted the way the endpoint's limiter counts: the most requests in any
 * window-long interval (sliding, the default) or in one aligned window (fixed).
 */
import { describe, expect, test } from 'vitest';
import { runScenario } from '../../../src/load/run-scenario.js';
import { scenarioSchema, type ScenarioInput } from '../../../src/load/scenario/schema.js';
import { SendRate } from '../../../src/load/record/send-rate.js';

/** A burst of 120 /health calls, 10 ms apart, from 9 s to 10.19 s: it straddles the 10 s boundary. */
function burst(window: 'sliding' | 'fixed') {
  const timestampsMs = [0, ...Array.from({ length: 120 }, (_, i) => 9000 + i * 10)];
  return scenarioSchema.parse({
    name: `burst-${window}`,
    durationMs: 30_000,
    drainMs: 1000,
    endpoint: { id: 'ep', limits: { window, operations: { health: { rate: 100 } } } },
    traffic: [{ name: 'burst', arrival: { process: 'replay', timestampsMs }, client: { behaviour: 'health', on429: { maxAttempts: 1 } } }],
  } satisfies ScenarioInput);
}

describe('headroom: peak rate against the rate limit', () => {
  test('sliding limiter (default): a burst straddling two 10 s windows is reported at its true peak, above the limit it hit', async () => {
    const r = await runScenario(burst('sliding'));
    const health = r.headroom.operations.find((o) => o.operation === 'health')!;
    // Fixed 10 s windows would hold 101 and 20; any 10 s interval ending at 10.19 s holds all 120.
    expect(health).toMatchObject({ peakPer10s: 120, ratePer10s: 100 });
    // The limiter agrees: it let through 100 in any 10 s and refused 20 of the 121.
    expect(r.operations.health!.limited.rate).toBe(20);
  });

  test('fixed limiter: counted in aligned windows, as it counts (no interval holds more than 101 there)', async () => {
    const r = await runScenario(burst('fixed'));
    expect(r.headroom.operations.find((o) => o.operation === 'health')).toMatchObject({ peakPer10s: 101, ratePer10s: 100 });
    expect(r.operations.health!.limited.rate).toBe(1);
  });

  test('SendRate equals a brute-force count over every interval, for bursts, gaps longer than the window and many sends per ms', () => {
    let seed = 12345;
    const rnd = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let round = 0; round < 20; round++) {
      const W = 1 + Math.floor(rnd() * 500);
      const r = new SendRate(W);
      const ts: number[] = [];
      let t = 0;
      for (let i = 0; i < 2000; i++) {
        const x = rnd();
        t += x < 0.3 ? 0 : x < 0.9 ? rnd() * 20 : rnd() * 3 * W;
        ts.push(t);
        r.add(t);
      }
      const ms = ts.map(Math.floor);
      let sliding = 0;
      const fixed = new Map<number, number>();
      for (let j = 0, i = 0; j < ms.length; j++) {
        while (ms[i]! <= ms[j]! - W) i++;
        sliding = Math.max(sliding, j - i + 1);
        const k = Math.floor(ms[j]! / W);
        fixed.set(k, (fixed.get(k) ?? 0) + 1);
      }
      expect(r.slidingPeak, `round ${round}`).toBe(sliding);
      expect(r.fixedPeak, `round ${round}`).toBe(Math.max(...fixed.values()));
      const end = ms.at(-1)!;
      expect(r.inWindow(end)).toBe(ms.filter((m) => m > end - W).length);
      expect(r.inWindow(end + W)).toBe(0);
    }
  });
});
