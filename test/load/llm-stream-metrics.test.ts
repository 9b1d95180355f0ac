/**
 * The runner's stream metrics on the simulator's token model, in process (virtual time, so exact):
 * with constant timings and warm workers TTFT, ITL and TPOT are the configured values; a cold
 * start adds to the first request's TTFT; a job that times out after its first token ends its
 * session TIMED_OUT with its stream counted broken; goodput and the stream thresholds read them.
 */
import { describe, expect, it } from 'vitest';
import { parseScenario } from '../../src/load/scenario/loader.js';
import { runScenario } from '../../src/load/run-scenario.js';
import type { RunResult } from '../../src/report/run-result.js';

const LLM = { ttftMs: 300, interTokenMs: 25, outputTokens: 20 };

async function run(endpoint: Record<string, unknown>, thresholds: string[] = [], client: Record<string, unknown> = {}): Promise<RunResult> {
  const l = parseScenario(
    {
      name: 'llm',
      seed: 3,
      durationMs: 10_000,
      endpoint: { id: 'ep', llm: LLM, ...endpoint },
      traffic: [
        {
          name: 'chat',
          arrival: { process: 'constant', ratePerSec: 1 },
          client: { behaviour: 'openai-chat', stream: true, maxTokens: 256, ...client },
          goodput: { ttftMs: 500, tpotMs: 30 },
        },
      ],
      thresholds,
    },
    'llm.yaml',
  );
  if (!l.ok) throw new Error(JSON.stringify(l.issues));
  return runScenario(l.scenario);
}

describe('stream metrics on the token model, in process', () => {
  it('constant timings, warm workers: TTFT, ITL and TPOT are exactly the configured values', async () => {
    const r = await run({ workersMin: 2, workersMax: 2 }, ['ttft_p95_ms{flow=chat} <= 300', 'tpot_p50_ms <= 25', 'goodput{flow=chat} == 1']);
    const s = r.flows.chat!.stream!;
    expect(s.requests).toBe(10);
    expect(s.tokens).toBe(200);
    for (const h of [s.ttftMs, s.itlMs, s.tpotMs]) expect(h.summary.min).toBe(h.summary.max);
    expect(s.ttftMs.summary.p50).toBe(300);
    expect(s.itlMs.summary.p50).toBe(25);
    expect(s.itlMs.count).toBe(190);
    expect(s.tpotMs.summary.p50).toBe(25);
    expect(s.good).toBe(10);
    expect(r.thresholds.every((t) => t.ok)).toBe(true);
  });

  it("a cold start: the first request's TTFT is the cold start plus TTFT", async () => {
    const r = await run({ workersMin: 0, workersMax: 1, coldStartMs: 1000, idleTimeoutMs: 60_000 }, ['ttft_p50_ms{flow=chat} < 300']);
    const s = r.flows.chat!.stream!;
    expect(s.ttftMs.summary.max).toBe(1300);
    expect(s.ttftMs.summary.min).toBe(300);
    expect(r.thresholds[0]).toMatchObject({ ok: false });
  });

  it('max_tokens caps the tokens a request gets', async () => {
    const r = await run({ workersMin: 2, workersMax: 2 }, [], { maxTokens: 5 });
    expect(r.flows.chat!.stream!.tokens).toBe(50);
    expect(r.flows.chat!.stream!.tpotMs.summary.p50).toBe(25);
  });

  it('a job timed out after its first token: the session ends TIMED_OUT, its stream broken and not good', async () => {
    // 300 + 19 × 25 = 775 ms to run; a 500 ms execution timeout cuts it after 9 tokens.
    const r = await run({ workersMin: 2, workersMax: 2, executionTimeoutMs: 500 });
    const f = r.flows.chat!;
    expect(f.outcomes).toEqual({ TIMED_OUT: 10 });
    expect(f.stream).toMatchObject({ requests: 10, broken: 10, good: 0 });
    expect(f.stream!.ttftMs.summary.p50).toBe(300);
  });
});
