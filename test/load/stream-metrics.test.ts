/**
 * Stream metrics in process: run-stream sessions against the simulator, whose jobs produce chunk
 * i of n at start + duration × i / n and whose `/stream` answers a held poll as a chunk lands. With
 * warm workers and no queue, TTFT, ITL and TPOT are the chunk spacing exactly; goodput and the
 * stream thresholds (whole run and `every`) read them from the result.
 */
import { describe, expect, test } from 'vitest';
import { runScenario } from '../../src/load/run-scenario.js';
import { scenarioSchema } from '../../src/load/scenario/schema.js';
import { decodeWindow } from '../../src/report/histogram.js';

const scenario = (thresholds: string[]) =>
  scenarioSchema.parse({
    name: 'streams',
    seed: 1,
    durationMs: 30_000,
    drainMs: 30_000,
    endpoint: { workersMin: 4, workersMax: 4, jobDurationMs: 4000, workload: { chunks: 8 } },
    traffic: [
      // 8 chunks over 4 s: one every 500 ms.
      { name: 'eight', arrival: { process: 'constant', ratePerSec: 0.2 }, client: { behaviour: 'run-stream', waitMs: 10_000 }, goodput: { ttftMs: 500 } },
      // 4 chunks over 3 s (the payload's directive): one every 750 ms; each poll held 1 s at most, so some come back empty.
      {
        name: 'four',
        arrival: { process: 'constant', ratePerSec: 0.1 },
        client: { behaviour: 'run-stream', waitMs: 1000, payload: { sim: { chunks: 4, durationMs: 3000 } } },
        goodput: { ttftMs: 700, tpotMs: 1000 },
      },
      { name: 'polls', arrival: { process: 'constant', ratePerSec: 0.2 }, client: { behaviour: 'run-poll' } },
    ],
    thresholds,
  });

describe('run-stream in process', () => {
  test("TTFT, ITL and TPOT follow the simulator's chunk schedule; tokens, goodput and the thresholds read them", async () => {
    const r = await runScenario(
      scenario([
        'ttft_p99_ms{flow=eight} <= 500',
        'itl_p50_ms{flow=four} == 750',
        // Over both flows the histograms are added: 750 ms reads as its HDR bucket's top, 750.07 (3 significant digits).
        'tpot_max_ms <= 750.07',
        'request_tokens_per_s_p50{flow=eight} == 2',
        'goodput{flow=eight} == 1',
        'goodput{flow=four} == 0',
        'ttft_p95_ms < 800 every 10s',
        'output_tokens_per_s > 0 every 10s',
        'ttft_p50_ms{flow=eight} < 500',
      ]),
    );
    const eight = r.flows.eight!.stream!;
    const four = r.flows.four!.stream!;
    expect(r.flows.polls!.stream).toBeUndefined();
    expect(eight.requests).toBe(r.flows.eight!.sessions);
    expect(eight.tokens).toBe(8 * eight.requests);
    for (const k of ['ttftMs', 'itlMs', 'tpotMs'] as const) expect([eight[k].summary.min, eight[k].summary.max], k).toEqual([500, 500]);
    expect(eight.itlMs.count).toBe(7 * eight.requests);
    expect(four.tokens).toBe(4 * four.requests);
    for (const k of ['ttftMs', 'itlMs', 'tpotMs'] as const) expect([four[k].summary.min, four[k].summary.max], k).toEqual([750, 750]);
    // 8 tokens over 4 s, 4 over 3 s (whole tokens/s).
    expect(eight.tokensPerS.summary.p50).toBe(2);
    expect(four.tokensPerS.summary.p50).toBe(1);
    expect([eight.good, four.good]).toEqual([eight.requests, 0]);
    expect(four.goodputTargets).toEqual({ ttftMs: 700, tpotMs: 1000 });

    // Per window: every stream once, its tokens and samples in the window of its last chunk.
    const w = r.windows!.streams!;
    const sum = (a: number[]) => a.reduce((x, y) => x + y, 0);
    expect(sum(w.eight!.requests)).toBe(eight.requests);
    expect(sum(w.eight!.tokens)).toBe(eight.tokens);
    expect(sum(w.eight!.good!)).toBe(eight.good);
    expect(w.four!.ttftMs.filter(Boolean).reduce((n, e) => n + decodeWindow(e).totalCount, 0)).toBe(four.requests);
    expect(r.windows!.streams!.polls).toBeUndefined();

    expect(r.thresholds.map((t) => [t.expr, t.ok])).toEqual([
      ['ttft_p99_ms{flow=eight} <= 500', true],
      ['itl_p50_ms{flow=four} == 750', true],
      ['tpot_max_ms <= 750.07', true],
      ['request_tokens_per_s_p50{flow=eight} == 2', true],
      ['goodput{flow=eight} == 1', true],
      ['goodput{flow=four} == 0', true],
      ['ttft_p95_ms < 800 every 10s', true],
      ['output_tokens_per_s > 0 every 10s', true],
      ['ttft_p50_ms{flow=eight} < 500', false],
    ]);
    const tokensPerS = r.thresholds.find((t) => t.expr === 'output_tokens_per_s > 0 every 10s')!;
    expect(tokensPerS.value).toBeGreaterThan(0);
  });

  test('a run without streaming flows has no stream sections', async () => {
    const sc = scenarioSchema.parse({
      name: 'plain',
      durationMs: 10_000,
      traffic: [{ name: 'p', arrival: { process: 'constant', ratePerSec: 1 }, client: { behaviour: 'run-poll' } }],
    });
    const r = await runScenario(sc);
    expect(r.flows.p!.stream).toBeUndefined();
    expect(r.windows!.streams).toBeUndefined();
  });
});
