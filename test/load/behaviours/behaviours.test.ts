/** Each client behaviour against the in-process simulator, with exact virtual-time expectations. */
import { describe, expect, test } from 'vitest';
import { parseScenario } from '../../../src/load/scenario/loader.js';
import { runScenario } from '../../../src/load/run-scenario.js';

async function run(client: Record<string, unknown>, endpoint: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) {
  const l = parseScenario(
    {
      name: 'b',
      durationMs: 10_000,
      endpoint: { workersMax: 10, jobDurationMs: 1000, ...endpoint },
      traffic: [{ name: 'f', arrival: { process: 'constant', ratePerSec: 1 }, client }],
      ...extra,
    },
    'inline',
  );
  if (!l.ok) throw new Error(JSON.stringify(l.issues));
  return runScenario(l.scenario);
}

describe('client behaviours (in-process)', () => {
  test('run-poll: polls with back-off until COMPLETED; queue delay and execution time from the status body', async () => {
    const r = await run({ behaviour: 'run-poll', poll: { baseMs: 400, factor: 2, maxMs: 5000, jitter: 0 } });
    expect(r.flows.f!.outcomes).toEqual({ COMPLETED: 10 });
    // polls at +400, +1200 (400 + 800): the second sees the 1 s job done.
    expect(r.operations.status!.requests).toBe(20);
    expect(r.jobs.executionMs.summary).toMatchObject({ min: 1000, max: 1000 });
  });
  test('run-poll with cancel: every job cancelled 300 ms after submission', async () => {
    const r = await run({ behaviour: 'run-poll', cancel: { afterMs: 300 }, poll: { baseMs: 500, jitter: 0 } });
    expect(r.flows.f!.outcomes).toEqual({ CANCELLED: 10 });
    expect(r.jobs.cancelled).toBe(10);
  });
  test('run-poll with retryFailed: a failing job is /retry-ed the given number of times', async () => {
    const r = await run({ behaviour: 'run-poll', retryFailed: 2, payload: { sim: { fail: true } }, poll: { baseMs: 2000, jitter: 0 } });
    expect(r.flows.f!.outcomes).toEqual({ FAILED: 10 });
    expect(r.jobs.retriedByClient).toBe(20);
    expect(r.operations.retry!.byStatus).toEqual({ 200: 20 });
  });
  test('run-webhook: the built-in receiver gets every delivery; session ends on it', async () => {
    const r = await run({ behaviour: 'run-webhook' });
    expect(r.webhooks).toMatchObject({ attempts: 10, delivered: 10, retries: 0, gaveUp: 0 });
    expect(r.webhooks.latenessMs.summary.max).toBe(0);
  });
  test('run-webhook, receiver always failing: 3 attempts 10 s apart, then lost', async () => {
    const r = await run({ behaviour: 'run-webhook' }, {}, { webhookReceiver: { failProbability: 1 } });
    expect(r.webhooks).toMatchObject({ attempts: 30, delivered: 0, failedAttempts: 30, retries: 20, gaveUp: 10 });
    expect(r.flows.f!.outcomes).toEqual({ 'webhook-lost': 10 });
  });
  test('run-stream: drains every chunk until COMPLETED', async () => {
    const r = await run({ behaviour: 'run-stream' }, { workload: { chunks: 5 } });
    expect(r.flows.f!.outcomes).toEqual({ COMPLETED: 10 });
    expect(r.streams.chunks).toBe(50);
  });
  test('runsync: a short wait answers IN_PROGRESS, /status-sync follows up', async () => {
    const r = await run({ behaviour: 'runsync', waitMs: 1000, statusSyncWaitMs: 1000 }, { jobDurationMs: 2500, workersMin: 10 });
    expect(r.flows.f!.outcomes).toEqual({ COMPLETED: 10 });
    expect(r.operations['status-sync']!.requests).toBe(20);
    expect(r.operations.runsync!.responseMs.summary).toMatchObject({ min: 1000, max: 1000 });
  });
  test('on 429: back-off and re-send up to maxAttempts', async () => {
    const r = await run(
      { behaviour: 'run-poll', on429: { maxAttempts: 2, baseMs: 3000, jitter: 0 }, poll: { jitter: 0 } },
      { limits: { operations: { run: { rate: 5 } } } },
    );
    expect(r.operations.run!.limited.rate).toBeGreaterThan(0);
    expect(r.operations.run!.retried429).toBeGreaterThan(0);
  });
  test('client timeout: status 0, counted, session ends "timeout"', async () => {
    const r = await run({ behaviour: 'runsync', timeoutMs: 500 }, { jobDurationMs: 5000 });
    expect(r.operations.runsync!.clientTimeouts).toBe(10);
    expect(r.flows.f!.outcomes).toEqual({ timeout: 10 });
  });
  test('health, purge-queue and openai-chat (streaming)', async () => {
    expect((await run({ behaviour: 'health' })).flows.f!.outcomes).toEqual({ ok: 10 });
    expect((await run({ behaviour: 'purge-queue', on429: { maxAttempts: 1 } })).operations['purge-queue']!.byStatus).toEqual({ 200: 2, 429: 8 });
    const c = await run({ behaviour: 'openai-chat', stream: true, maxTokens: 4 });
    expect(c.flows.f!.outcomes).toEqual({ COMPLETED: 10 });
    expect(c.streams.chunks).toBe(60); // 4 words, the finish chunk and the usage chunk (stream_options.include_usage) each
  });
  test('openai-chat promptTokens: each message is that many tokens, which a batching worker prefills', async () => {
    // One request at a time on an idle engine: TTFT = decodeMs + prefillMsPerToken × prompt tokens.
    const llm = { engine: { decodeMs: 10, prefillMsPerToken: 0.1 }, outputTokens: 2 };
    const chat = (promptTokens: unknown) => run({ behaviour: 'openai-chat', stream: true, maxTokens: 2, promptTokens }, { workersMin: 1, llm });
    expect((await chat(200)).flows.f!.stream!.ttftMs.summary).toMatchObject({ min: 30, max: 30 });
    const drawn = await chat({ dist: 'uniform', minMs: 100, maxMs: 300 });
    const t = drawn.flows.f!.stream!.ttftMs.summary;
    expect(t.min).toBeGreaterThanOrEqual(20);
    expect(t.max).toBeLessThanOrEqual(40);
    expect(t.max).toBeGreaterThan(t.min);
    // Drawn from the flow's seeded stream: the same run again gives the same prompts.
    expect((await chat({ dist: 'uniform', minMs: 100, maxMs: 300 })).flows.f!.stream!.ttftMs).toEqual(drawn.flows.f!.stream!.ttftMs);
  });
  test('in-flight cap: arrivals wait (late) and are dropped past maxWaitMs', async () => {
    const r = await run({ behaviour: 'runsync' }, { jobDurationMs: 2500 }, { openModel: { maxInFlight: 1, maxWaitMs: 2000, lateAfterMs: 10 } });
    expect(r.arrivals.late).toBeGreaterThan(0);
    expect(r.arrivals.dropped).toBeGreaterThan(0);
    expect(r.arrivals.intended).toBe(10);
  });
});
