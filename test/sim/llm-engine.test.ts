/**
 * Continuous batching (`llm.engine`) against hand-computed iteration schedules, through the API in
 * process: token instants of streamed chat completions, completion times and execution times.
 * Engine: an iteration lasts 10 ms + 2 ms per further sequence + 0.5 ms per prompt token in it.
 * Prompts of 32 characters are 8 tokens (characters / 4): a prefill iteration alone is 14 ms.
 */
import { describe, expect, it } from 'vitest';
import type { EndpointConfigInput } from '../../src/contract/endpoint-config.js';
import { streamChats, tokenTimes } from '../helpers/engine-streams.js';
import { harness } from '../helpers/harness.js';

const ENGINE = { decodeMs: 10, perSequenceMs: 2, prefillMsPerToken: 0.5 };
const PROMPT = 'x'.repeat(32);

function endpoint(extra: Partial<EndpointConfigInput> = {}, engine: Record<string, number> = {}): Partial<EndpointConfigInput> {
  return { workersMin: 1, workersMax: 1, workerConcurrency: 4, llm: { engine: { ...ENGINE, ...engine }, outputTokens: 5 }, ...extra };
}

/** Streamed chat completions sent at the given instants; the answers once the run is over. */
const streams = (ep: Partial<EndpointConfigInput>, sendAtMs: number[]) =>
  streamChats(
    ep,
    sendAtMs.map((atMs) => ({ atMs, content: PROMPT })),
    false,
  ).out;

describe('continuous batching in process (hand-computed schedules)', () => {
  it('one sequence: a prefill iteration, then one token per decode iteration; the job ends with its last token', () => {
    const [a] = streams(endpoint(), [0]);
    // 10 + 8 × 0.5 = 14 ms for the prefill iteration, then 10 ms a token.
    expect(tokenTimes(a!)).toEqual([14, 24, 34, 44, 54]);
    const h = harness(endpoint());
    const id = h.run({ prompt: PROMPT }).body.id;
    h.at(53);
    expect(h.status(id).body.status).toBe('IN_PROGRESS');
    h.at(54);
    expect(h.status(id).body).toMatchObject({ status: 'COMPLETED', executionTime: 54, workerId: 'ep-w1' });
  });

  it('two sequences joining at different iterations share the iterations, each growing with the batch', () => {
    const [a, b] = streams(endpoint(), [0, 20]);
    // B is ready at 20 and joins at the boundary at 24: that iteration prefills it (10 + 2 + 4 = 16 ms),
    // then both decode at 12 ms an iteration until A's last token at 64; B alone after that.
    expect(tokenTimes(a!)).toEqual([14, 24, 40, 52, 64]);
    expect(tokenTimes(b!)).toEqual([40, 52, 64, 74, 84]);
  });

  it('a full batch (maxNumSeqs) makes the next job wait inside the worker, in progress', () => {
    const [a, b] = streams(endpoint({}, { maxNumSeqs: 1 }), [0, 0]);
    expect(tokenTimes(a!)).toEqual([14, 24, 34, 44, 54]);
    expect(tokenTimes(b!)).toEqual([68, 78, 88, 98, 108]);
    const h = harness(endpoint({}, { maxNumSeqs: 1 }));
    h.run({ prompt: PROMPT });
    const b2 = h.run({ prompt: PROMPT }).body.id;
    h.at(1);
    expect(h.status(b2).body.status).toBe('IN_PROGRESS');
    expect(h.req('GET', '/health').body.jobs).toMatchObject({ inProgress: 2, inQueue: 0 });
    expect(h.req('GET', '/health').body.workers).toMatchObject({ running: 1 });
    h.at(108);
    expect(h.status(b2).body).toMatchObject({ status: 'COMPLETED', delayTime: 0, executionTime: 108 });
  });

  it('keeps fractions of a ms in token times; the job ends at the first whole ms at or after its last token', () => {
    const [a] = streams(endpoint({ llm: { engine: { decodeMs: 5.1 }, outputTokens: 3 } }), [0]);
    const t = tokenTimes(a!);
    expect(t[0]).toBeCloseTo(5.1, 9);
    expect(t[1]).toBeCloseTo(10.2, 9);
    expect(t[2]).toBeCloseTo(15.3, 9);
    const h = harness(endpoint({ llm: { engine: { decodeMs: 5.1 }, outputTokens: 3 } }));
    const id = h.run({ prompt: 'hi' }).body.id;
    h.at(15);
    expect(h.status(id).body.status).toBe('IN_PROGRESS');
    h.at(16);
    expect(h.status(id).body).toMatchObject({ status: 'COMPLETED', executionTime: 16 });
  });

  it('a long prompt is prefilled in chunks of the token budget', () => {
    // 8 prompt tokens with a budget of 3 a step: 3 + 3 + 2 tokens over three iterations (11.5, 11.5, 11 ms).
    const [a] = streams(endpoint({}, { maxNumBatchedTokens: 3 }), [0]);
    expect(tokenTimes(a!)).toEqual([34, 44, 54, 64, 74]);
  });

  it('a cancelled job leaves the batch at the next boundary: the others speed up from there', () => {
    const h = harness(endpoint({ llm: { engine: ENGINE, outputTokens: 10 } }));
    const a = h.run({ prompt: PROMPT }).body.id;
    const b = h.run({ prompt: PROMPT }).body.id;
    // Both prefill together: 10 + 2 + 8 = 20 ms; then 12 ms an iteration for two.
    h.at(25);
    h.req('POST', `/cancel/${b}`);
    // B leaves at 32 (end of the iteration under way); A alone: 10 ms an iteration from there.
    // A's tokens: 20, 32, then 42 … 112 (eight more): ends at 112.
    h.at(111);
    expect(h.status(a).body.status).toBe('IN_PROGRESS');
    h.at(112);
    expect(h.status(a).body).toMatchObject({ status: 'COMPLETED', executionTime: 112 });
  });

  it('a planned failure runs its tokens unseen: /stream has none, the job ends FAILED after its last', () => {
    const h = harness(endpoint());
    const id = h.run({ prompt: PROMPT, sim: { fail: true } }).body.id;
    // Its tokens would be at 14, 24, 34, …: nothing to send at 35, the poll waits.
    h.at(35);
    expect(h.req('POST', `/stream/${id}`).res).toBeUndefined();
    h.at(54);
    expect(h.status(id).body).toMatchObject({ status: 'FAILED', executionTime: 54 });
  });

  it('an execution timeout ends a batched job TIMED_OUT and frees its place', () => {
    const h = harness(endpoint({ executionTimeoutMs: 30, llm: { engine: ENGINE, outputTokens: 10 } }));
    const a = h.run({ prompt: PROMPT }).body.id;
    h.at(30);
    expect(h.status(a).body).toMatchObject({ status: 'TIMED_OUT', executionTime: 30 });
    expect(h.req('GET', '/health').body.jobs).toMatchObject({ inProgress: 0, failed: 1 });
  });
});

describe('several jobs per worker without an engine (workerConcurrency)', () => {
  it('one worker runs up to workerConcurrency jobs at once; the rest queue; /health counts jobs, not workers', () => {
    const h = harness({ workersMin: 1, workersMax: 1, workerConcurrency: 3, jobDurationMs: 1000 });
    const ids = [0, 1, 2, 3].map(() => h.run({}).body.id);
    expect(h.req('GET', '/health').body).toMatchObject({ jobs: { inProgress: 3, inQueue: 1 }, workers: { running: 1, idle: 0 } });
    h.at(1000);
    expect(ids.slice(0, 3).map((id) => h.status(id).body.status)).toEqual(['COMPLETED', 'COMPLETED', 'COMPLETED']);
    expect(h.status(ids[3]!).body).toMatchObject({ status: 'IN_PROGRESS', delayTime: 1000, workerId: 'ep-w1' });
    h.at(2000);
    expect(h.status(ids[3]!).body).toMatchObject({ status: 'COMPLETED', executionTime: 1000 });
    expect(h.req('GET', '/health').body.workers).toMatchObject({ running: 0, idle: 1 });
  });

  it('a crashing worker sends every job it holds back to the queue', () => {
    const h = harness({ workersMin: 1, workersMax: 1, workerConcurrency: 3, jobDurationMs: 1000 });
    const a = h.run({}).body.id;
    const b = h.run({ sim: { crash: true } }).body.id;
    const c = h.run({}).body.id;
    h.at(500);
    expect(h.req('GET', '/health').body.jobs).toMatchObject({ inProgress: 3, retried: 3 });
    for (const id of [a, b, c]) expect(h.status(id).body).toMatchObject({ status: 'IN_PROGRESS', delayTime: 0 });
    h.at(1500);
    for (const id of [a, b, c]) expect(h.status(id).body).toMatchObject({ status: 'COMPLETED', executionTime: 1000, retries: 1 });
  });

  it('REQUEST_COUNT aims for ceil((queued + in progress) / value) workers, counting jobs', () => {
    const h = harness({ workersMax: 5, workerConcurrency: 4, scaler: { type: 'REQUEST_COUNT', value: 4 }, jobDurationMs: 10_000 });
    for (let i = 0; i < 9; i++) h.run({});
    h.at(1);
    expect(h.req('GET', '/health').body).toMatchObject({ jobs: { inProgress: 9, inQueue: 0 }, workers: { running: 3 } });
  });
});
