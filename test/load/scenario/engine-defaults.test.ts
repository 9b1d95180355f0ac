/**
 * An `llm.engine` without maxNumSeqs / maxNumBatchedTokens gets vLLM's defaults on the GPU the
 * scenario names (plan.gpu, or the --gpu flag as the loader's `gpu`): 1024 / 8192 on H100, H200
 * and B200-class GPUs, 256 / 2048 on others; keys it gives win; no GPU keeps 256 / 8192. Seen in
 * the parsed scenario and in what a client sees of the simulated endpoint: how many streams get
 * their first token in the first iteration, and how long a long prompt takes to prefill.
 */
import { describe, expect, it } from 'vitest';
import { textOfTokens } from '../../../src/contract/prompt-tokens.js';
import { parseScenario } from '../../../src/load/scenario/loader.js';
import { withGpuEngineDefaults } from '../../../src/load/scenario/engine-defaults.js';
import type { Scenario } from '../../../src/load/scenario/schema.js';
import { inProcessTarget } from '../../../src/load/targets/in-process/for-scenario.js';
import type { TargetResponse } from '../../../src/load/targets/target.js';

/** An iteration: 10 ms, plus 0.01 ms per prompt token prefilled in it (no growth per sequence). */
const ENGINE = { decodeMs: 10, prefillMsPerToken: 0.01 };

function input(gpu: string | undefined, engine: Record<string, number> = {}): Record<string, unknown> {
  return {
    name: 'gpu-defaults',
    durationMs: 1000,
    endpoint: {
      id: 'llm',
      workersMin: 1,
      workersMax: 1,
      workerConcurrency: 1024,
      coldStartMs: 0,
      limits: { enabled: false },
      llm: { engine: { ...ENGINE, ...engine }, outputTokens: 5 },
    },
    traffic: [{ name: 'chat', arrival: { process: 'closed', users: 300 }, client: { behaviour: 'openai-chat', stream: true } }],
    ...(gpu === undefined ? {} : { plan: { gpu } }),
  };
}

function load(gpu: string | undefined, engine: Record<string, number> = {}, flagGpu?: string): Scenario {
  const r = parseScenario(input(gpu, engine), 'gpu-defaults.yaml', { gpu: flagGpu });
  if (!r.ok) throw new Error(JSON.stringify(r.issues));
  return r.scenario;
}

const limitsOf = (sc: Scenario) => {
  const e = sc.endpoint.llm!.engine!;
  return [e.maxNumSeqs, e.maxNumBatchedTokens];
};

/** `n` streamed chat completions of `promptTokens` each, all sent at 0; the answers, and the most sequences one batch held. */
function streams(sc: Scenario, n: number, promptTokens: number): { answers: TargetResponse[]; mostRunning: number } {
  const t = inProcessTarget(sc, 1);
  const answers: TargetResponse[] = [];
  const body = { messages: [{ role: 'user', content: textOfTokens(promptTokens) }], stream: true };
  for (let i = 0; i < n; i++) t.send({ op: 'openai', method: 'POST', path: '/openai/v1/chat/completions', body, timeoutMs: 600_000 }, (r) => answers.push(r));
  const engines = t.sim.endpoints.get('llm')!.engines;
  let mostRunning = 0;
  for (let at = 1; at <= 1000; at++) {
    t.sim.runUntil(at);
    mostRunning = Math.max(mostRunning, engines.running);
  }
  expect(answers).toHaveLength(n);
  return { answers, mostRunning };
}

/** The instant of a stream's first token: its time to first token, every stream sent at 0. */
const ttft = (r: TargetResponse): number => r.sseAtMs![r.sse!.findIndex((d) => d !== '[DONE]' && JSON.parse(d).choices[0]?.delta?.content !== undefined)]!;

describe('the parsed scenario', () => {
  it.each([
    ['H100-PRO', 1024, 8192],
    ['H200', 1024, 8192],
    ['B200', 1024, 8192],
    ['h100-pcie', 1024, 8192],
    ['A100', 256, 2048],
    ['4090-PRO', 256, 2048],
    ['L40S', 256, 2048],
    ['some-new-gpu', 256, 2048],
  ])('plan.gpu %s: maxNumSeqs %i, maxNumBatchedTokens %i', (gpu, seqs, tokens) => {
    expect(limitsOf(load(gpu))).toEqual([seqs, tokens]);
  });

  it('no GPU named: 256 and 8192, as before', () => {
    expect(limitsOf(load(undefined))).toEqual([256, 8192]);
  });

  it('keys the engine gives win, each on its own', () => {
    expect(limitsOf(load('H100-PRO', { maxNumSeqs: 64 }))).toEqual([64, 8192]);
    expect(limitsOf(load('A100', { maxNumBatchedTokens: 8192 }))).toEqual([256, 8192]);
    expect(limitsOf(load('A100', { maxNumSeqs: 512, maxNumBatchedTokens: 4096 }))).toEqual([512, 4096]);
    expect(limitsOf(load(undefined, { maxNumSeqs: 32 }))).toEqual([32, 8192]);
  });

  it('the --gpu flag names the GPU in place of plan.gpu, also where the scenario names none', () => {
    expect(limitsOf(load('A100', {}, 'H100-PRO'))).toEqual([1024, 8192]);
    expect(limitsOf(load('H200', {}, 'A100'))).toEqual([256, 2048]);
    expect(limitsOf(load(undefined, {}, 'B200'))).toEqual([1024, 8192]);
    expect(limitsOf(load(undefined, { maxNumSeqs: 8 }, 'B200'))).toEqual([8, 8192]);
    // plan.gpu stays as the file gives it (the bill reads the flag itself).
    expect(load('A100', {}, 'H100-PRO').plan?.gpu).toBe('A100');
  });

  it('leaves the input alone, and anything without an engine', () => {
    const raw = input('H100-PRO');
    const before = JSON.stringify(raw);
    expect(parseScenario(raw, 'x.yaml').ok).toBe(true);
    expect(JSON.stringify(raw)).toBe(before);
    const noEngine = { ...raw, endpoint: { id: 'llm', jobDurationMs: 100 } };
    expect(withGpuEngineDefaults(noEngine)).toBe(noEngine);
    expect(withGpuEngineDefaults(input(undefined))).toEqual(input(undefined));
  });

  it('a bad engine or plan.gpu is still the schema’s to report', () => {
    const bad = parseScenario(input('H100-PRO', { maxNumSeqs: 0 }), 'x.yaml');
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.issues.map((i) => i.path)).toEqual(['endpoint.llm.engine.maxNumSeqs']);
    const badGpu = parseScenario({ ...input(undefined), plan: { gpu: 7 } }, 'x.yaml');
    expect(badGpu.ok).toBe(false);
    if (!badGpu.ok) expect(badGpu.issues.map((i) => i.path)).toEqual(['plan.gpu']);
  });
});

describe('what a client sees of the simulated endpoint', () => {
  it('H100-PRO: 300 streams sent at once share one batch, every first token at the first iteration', () => {
    const h100 = streams(load('H100-PRO'), 300, 16);
    expect(h100.mostRunning).toBe(300);
    // One iteration prefills all 300 prompts (4800 tokens, within 8192): 10 + 48 ms.
    expect(new Set(h100.answers.map(ttft))).toEqual(new Set([58]));
    // Named no GPU, the batch holds 256: the other 44 wait for places, far longer to their first token.
    const none = streams(load(undefined), 300, 16);
    expect(none.mostRunning).toBe(256);
    const late = none.answers.map(ttft).filter((t) => t > 58);
    expect(late).toHaveLength(44);
  });

  it('A100: a 4096-token prompt is prefilled in two iterations of 2048, one iteration (10 ms) later than with 8192', () => {
    const [a100] = streams(load('A100'), 1, 4096).answers;
    const [none] = streams(load(undefined), 1, 4096).answers;
    // 8192: one iteration of 10 + 4096 × 0.01 ms; 2048: two of 10 + 2048 × 0.01 ms.
    expect(ttft(none!)).toBeCloseTo(50.96, 9);
    expect(ttft(a100!)).toBeCloseTo(60.96, 9);
    // The A100 with the key given: as with no GPU.
    const [given] = streams(load('A100', { maxNumBatchedTokens: 8192 }), 1, 4096).answers;
    expect(ttft(given!)).toBeCloseTo(50.96, 9);
  });
});
