/**
 * The per-window columns metrics.om reads beside the histograms: answers by operation and status
 * (`windows.responses`), in-flight maxima by operation (`windows.inFlightMax`) and webhooks given
 * up (`timeline.webhookGaveUp`). They agree with the whole-run figures of the same report, and
 * an in-flight window with no send in it still shows what was in flight.
 */
import { describe, expect, it } from 'vitest';
import { InFlightWindows } from '../../../src/load/record/in-flight-windows.js';
import { StatusWindows } from '../../../src/load/record/status-windows.js';
import { runScenario } from '../../../src/load/run-scenario.js';
import { scenarioSchema } from '../../../src/load/scenario/schema.js';

const sum = (a: readonly number[]) => a.reduce((x, y) => x + y, 0);

describe('InFlightWindows', () => {
  it("holds each window's highest level, the level it started with included", () => {
    const f = new InFlightWindows(10);
    f.up(5); // window 0: 1
    f.up(15); // window 1: 2
    f.down(16);
    f.down(45); // one request held over windows 2, 3 and into 4
    expect(f.result(6)).toEqual([1, 2, 1, 1, 1, 0]);
    expect(f.peak).toBe(2);
    expect(f.level).toBe(0);
  });

  it('counts a send past the last window in the last one', () => {
    const f = new InFlightWindows(10);
    f.up(1);
    f.up(31);
    f.up(32);
    expect(f.result(2)).toEqual([1, 3]);
  });
});

describe('StatusWindows', () => {
  it('counts answers by status in the window of the answer, statuses in numeric order', () => {
    const s = new StatusWindows(10);
    for (const [at, st] of [
      [1, 429],
      [2, 200],
      [12, 200],
      [25, 0],
      [99, 200],
      [3, 1234],
    ] as const)
      s.add(at, st);
    expect(s.result(3)).toEqual({ 0: [0, 0, 1], 200: [1, 1, 1], 429: [1, 0, 0], 1234: [1, 0, 0] });
    expect(Object.keys(s.result(3))).toEqual(['0', '200', '429', '1234']);
  });
});

describe("a run's per-window answers, in-flight maxima and webhooks given up", () => {
  it('add up to the whole-run figures', async () => {
    const r = await runScenario(
      scenarioSchema.parse({
        name: 'per-window',
        durationMs: 40_000,
        drainMs: 120_000,
        endpoint: { id: 'ep', workersMax: 2, jobDurationMs: 3000, limits: { operations: { run: { rate: 10 } } } },
        webhookReceiver: { failProbability: 0.6 },
        traffic: [
          { name: 'poll', arrival: { process: 'constant', ratePerSec: 1.5 }, client: { behaviour: 'run-poll', poll: { baseMs: 500, factor: 1, jitter: 0 } } },
          { name: 'sync', arrival: { process: 'constant', ratePerSec: 0.5 }, client: { behaviour: 'runsync', waitMs: 20_000 } },
          { name: 'hook', arrival: { process: 'constant', ratePerSec: 0.5 }, client: { behaviour: 'run-webhook' } },
        ],
      }),
    );
    const w = r.windows!;
    const n = Math.ceil(r.elapsedMs / w.windowMs);
    expect(Object.keys(w.responses!)).toEqual(Object.keys(r.operations));
    for (const [op, o] of Object.entries(r.operations)) {
      expect(Object.keys(w.responses![op]!), op).toEqual(Object.keys(o.byStatus));
      for (const [st, v] of Object.entries(o.byStatus)) {
        expect(w.responses![op]![st], `${op} ${st}`).toHaveLength(n);
        expect(sum(w.responses![op]![st]!), `${op} ${st}`).toBe(v);
      }
      const peak = r.headroom.operations.find((h) => h.operation === op)?.peakInFlight;
      expect(w.inFlightMax![op], op).toHaveLength(n);
      if (peak !== undefined) expect(Math.max(...w.inFlightMax![op]!), op).toBe(peak);
    }
    expect(r.operations.run!.byStatus['429']).toBeGreaterThan(0);
    // A /runsync sent just before the traffic ends is held into the drain, where none is sent.
    const heldOnly = w.inFlightMax!.runsync!.filter((m, i) => m > 0 && w.requests!.runsync![i] === 0);
    expect(heldOnly.length).toBeGreaterThan(0);
    expect(r.webhooks.gaveUp).toBeGreaterThan(0);
    expect(r.webhooks.delivered).toBeGreaterThan(0);
    expect(sum(r.timeline.webhookGaveUp!)).toBe(r.webhooks.gaveUp);
    expect(r.timeline.webhookGaveUp!.every((g, i) => g <= r.timeline.webhookFailures[i]!)).toBe(true);
  });
});
