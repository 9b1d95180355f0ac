/**
 * A token trace's jobs last what its own prompt and answer lengths give, not what llm.outputTokens
 * would draw: the dry run's job-time line, Erlang C's mean job time and the flow's estimate
 * (plan/flow-job-time.ts) read them from the trace, and the estimate is what the simulator takes
 * for a job alone in its batch.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { parseScenario } from '../../src/load/scenario/loader.js';
import type { Scenario } from '../../src/load/scenario/schema.js';
import { runScenario } from '../../src/load/run-scenario.js';
import { renderPlan } from '../../src/plan/dry-run.js';
import { flowJobTime } from '../../src/plan/flow-job-time.js';
import { mmcInputs } from '../../src/plan/mmc-reference.js';
import { extrapolationFlags, fitRangeOf } from '../../src/plan/extrapolation.js';
import { planTraces } from '../../src/plan/plan-traces.js';

const dir = mkdtempSync(join(tmpdir(), 'loadlab-flow-job-time-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// Prompts 500, 2500 and 0 tokens (mean 1000; 2500 takes 3 chunks of 1000), answers 10, 30, 20 (mean 20); 10 s apart.
const TRACE = join(dir, 'trace.csv');
writeFileSync(TRACE, 'atMs,promptTokens,outputTokens\n0,500,10\n10000,2500,30\n20000,0,20\n');
const ENGINE = { decodeMs: 5, perSequenceMs: 0.1, prefillMsPerToken: 0.01, overheadMs: 20, maxNumBatchedTokens: 1000 };
// overheadMs + prefill of the mean prompt + decodeMs × (mean answer + the 2 further chunks over 3 requests).
const TRACE_JOB_MS = 20 + 0.01 * 1000 + 5 * (20 + 2 / 3);

function scenario(llm: Record<string, unknown>, traffic: Record<string, unknown>[]): Scenario {
  const l = parseScenario(
    { name: 'flow-job-time', durationMs: 30_000, endpoint: { id: 'llm', workersMin: 1, workersMax: 1, workerConcurrency: 4, llm }, traffic },
    join(dir, 'scenario.yaml'),
  );
  if (!l.ok) throw new Error(JSON.stringify(l.issues));
  return l.scenario;
}
const traceFlow = (behaviour = 'openai-chat') => ({
  name: 'chat',
  arrival: { process: 'replay', file: 'trace.csv', format: 'csv' },
  client: behaviour === 'openai-chat' ? { behaviour, stream: true } : { behaviour },
});

describe("a token trace's mean job time", () => {
  test('with an engine: overheadMs, the prompt prefilled in chunks, decodeMs per answer token, from the trace', () => {
    const sc = scenario({ engine: ENGINE, outputTokens: 128 }, [traceFlow()]);
    const t = flowJobTime(sc.endpoint, sc.traffic[0]!.arrival);
    expect(t.ms).toBeCloseTo(TRACE_JOB_MS, 9);
    expect(t.trace).toEqual({ promptTokens: 1000, outputTokens: 20 });
    expect(mmcInputs(sc).meanJobMs).toBeCloseTo(TRACE_JOB_MS, 9);
  });

  test('without an engine: mean ttftMs, then interTokenMs per further token of the mean answer', () => {
    const sc = scenario({ ttftMs: 100, interTokenMs: 10, outputTokens: 128 }, [traceFlow()]);
    expect(flowJobTime(sc.endpoint, sc.traffic[0]!.arrival).ms).toBeCloseTo(100 + 19 * 10, 9);
  });

  test('other flows keep the endpoint mean; Erlang C weighs each flow by its jobs', () => {
    const sc = scenario({ engine: ENGINE, outputTokens: 128 }, [
      traceFlow(),
      { name: 'other', arrival: { process: 'constant', ratePerSec: 0.1 }, client: { behaviour: 'openai-chat', stream: true } },
    ]);
    expect(flowJobTime(sc.endpoint, sc.traffic[1]!.arrival)).toEqual({ ms: 20 + 128 * 5 });
    // 3 trace jobs and 3 constant ones (0, 10 s, 20 s) in 30 s.
    expect(mmcInputs(sc).meanJobMs).toBeCloseTo((TRACE_JOB_MS + 20 + 128 * 5) / 2, 9);
  });

  test("the dry run's job-time line uses the trace's lengths", () => {
    const sc = scenario({ engine: ENGINE, outputTokens: 128 }, [traceFlow()]);
    expect(renderPlan(sc).text).toContain(
      "  job time: ~0 job-seconds (3 jobs × 0.13 s mean job time, each alone in its batch: overheadMs, its prompt's prefill and decodeMs per output token; chat: its trace's 1000 prompt and 20.0 answer tokens a request on average, 0.13 s)",
    );
  });

  test("the plan's traces and its KV cache flag: the trace's requests and lengths, not llm.outputTokens", () => {
    const sc = scenario({ engine: { ...ENGINE, kvCacheTokens: 4096 }, outputTokens: 128 }, [traceFlow()]);
    const traces = planTraces(sc);
    expect(traces).toEqual([
      {
        flow: 'chat',
        file: 'trace.csv',
        format: 'csv',
        fromMs: 0,
        toMs: null,
        speed: 1,
        loop: false,
        requests: 3,
        meanPromptTokens: 1000,
        meanOutputTokens: 20,
      },
    ]);
    const range = fitRangeOf(sc, traces)!;
    expect(range.tokensPerRequest).toBe(1020);
    // 4096 tokens hold 4 requests of 1020 tokens (of 128 + 1: 31).
    expect(extrapolationFlags(range, { workerConcurrency: 4 })).toEqual([]);
    expect(extrapolationFlags(range, { workerConcurrency: 5 })[0]).toMatch(/^past the KV cache: about 4 of the 5 requests/);
  });

  test('it is what the simulator takes for a job alone in its batch (whole ms)', async () => {
    const sc = scenario({ engine: ENGINE, outputTokens: 128 }, [traceFlow('run-poll')]);
    const r = await runScenario(sc, {});
    const exec = r.jobs.executionMs;
    expect(exec.count).toBe(3);
    expect(Math.abs(exec.summary.mean - TRACE_JOB_MS)).toBeLessThan(1.5);
  });
});

describe('Erlang C counts jobs, not sessions', () => {
  test("a multi-turn chat's λ is its sessions' rate times their mean turns, as the dry run's requests", () => {
    const loaded = parseScenario(
      {
        name: 'turns',
        durationMs: 600_000,
        endpoint: { id: 'ep', workersMax: 2, llm: { ttftMs: 100, interTokenMs: 10, outputTokens: 20 } },
        traffic: [
          {
            name: 'chat',
            arrival: { process: 'poisson', ratePerSec: 0.5 },
            client: { behaviour: 'openai-chat', stream: true, turns: { dist: 'uniform', minMs: 2, maxMs: 6 } },
          },
        ],
      },
      'turns.yaml',
    );
    if (!loaded.ok) throw new Error(JSON.stringify(loaded.issues));
    // 0.5 sessions a second × 4 turns on average: 2 jobs a second.
    expect(mmcInputs(loaded.scenario).arrivalsPerSec).toBeCloseTo(2, 9);
    expect(renderPlan(loaded.scenario).text).toMatch(/~1200 requests/);
  });
});
