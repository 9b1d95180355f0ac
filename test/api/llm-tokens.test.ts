/**
 * The token model (`endpoint.llm`): a job runs ttft plus one inter-token gap per further token;
 * the OpenAI route streams each token's chunk at the instant it is produced (in process: the
 * response reaches the runner whole, each event with its virtual ms in `sseAtMs`); `max_tokens`
 * caps the count (`finish_reason: "length"`); `/stream` gives each token as an item.
 */
import { describe, expect, it } from 'vitest';
import { parseSimConfig } from '../../src/contract/endpoint-config.js';
import { InProcessTarget } from '../../src/load/targets/in-process/in-process-target.js';
import type { TargetResponse } from '../../src/load/targets/target.js';
import { Simulator } from '../../src/sim/simulator.js';
import { harness } from '../helpers/harness.js';
import { renderPlan } from '../../src/plan/dry-run.js';
import { scenarioSchema } from '../../src/load/scenario/schema.js';

const LLM = { ttftMs: 300, interTokenMs: 25, outputTokens: 20 };
const chat = (extra: Record<string, unknown> = {}) => ({ messages: [{ role: 'user', content: 'hello there' }], stream: true, ...extra });

function target(endpoint: Record<string, unknown>, seed = 1) {
  const p = parseSimConfig({ seed, endpoints: [{ id: 'ep', ...endpoint }] });
  if (!p.ok) throw new Error(JSON.stringify(p.issues));
  const sim = new Simulator(p.config);
  return { sim, t: new InProcessTarget(sim, 'ep') };
}

/** Sends a streamed chat completion at `atMs` and runs the simulator until it is answered. */
function streamAt(endpoint: Record<string, unknown>, atMs: number, body = chat(), seed = 1): TargetResponse {
  const { sim, t } = target(endpoint, seed);
  let res: TargetResponse | undefined;
  sim.runUntil(atMs);
  t.send({ op: 'openai', method: 'POST', path: '/openai/v1/chat/completions', body, timeoutMs: 600_000 }, (r) => (res = r));
  sim.runUntil(atMs + 100_000);
  if (!res) throw new Error('not answered');
  return res;
}

const parsed = (r: TargetResponse) => r.sse!.filter((d) => d !== '[DONE]').map((d) => JSON.parse(d));
const tokenChunks = (r: TargetResponse) => parsed(r).filter((c) => c.choices[0]?.delta?.content !== undefined);

describe('in process: a streamed chat completion on an llm endpoint', () => {
  it('warm worker: token k arrives at submission + ttft + (k - 1) × inter-token gap, then the finish chunk and [DONE]', () => {
    const r = streamAt({ workersMin: 1, workersMax: 1, llm: LLM }, 1000);
    expect(r.status).toBe(200);
    expect(r.sse).toHaveLength(20 + 2);
    expect(r.sseAtMs).toHaveLength(r.sse!.length);
    const expected = Array.from({ length: 20 }, (_, k) => 1000 + 300 + k * 25);
    expect(r.sseAtMs!.slice(0, 20)).toEqual(expected);
    expect(r.sseAtMs!.slice(20)).toEqual([1775, 1775]);
    expect(r.sse!.at(-1)).toBe('[DONE]');
    const chunks = tokenChunks(r);
    expect(chunks).toHaveLength(20);
    expect(chunks[0].choices[0].delta.role).toBe('assistant');
    expect(parsed(r).at(-1).choices[0]).toMatchObject({ delta: {}, finish_reason: 'stop' });
  });

  it('cold start: the first token comes the cold start plus ttft after submission', () => {
    const r = streamAt({ workersMin: 0, workersMax: 1, coldStartMs: 2000, llm: LLM }, 500);
    expect(r.sseAtMs![0]).toBe(500 + 2000 + 300);
    expect(r.sseAtMs![19]).toBe(500 + 2000 + 300 + 19 * 25);
  });

  it('max_tokens below the drawn count: exactly max_tokens tokens, finish_reason "length", usage to match', () => {
    const r = streamAt({ workersMin: 1, llm: LLM }, 0, chat({ max_tokens: 7, stream_options: { include_usage: true } }));
    expect(tokenChunks(r)).toHaveLength(7);
    const all = parsed(r);
    expect(all.at(-2).choices[0].finish_reason).toBe('length');
    // include_usage: a last chunk with usage and no choices, as OpenAI sends it.
    expect(all.at(-1)).toMatchObject({ choices: [], usage: { completion_tokens: 7 } });
    expect(r.sseAtMs!.at(-1)).toBe(300 + 6 * 25);
  });

  it('max_tokens above the drawn count: the drawn count, finish_reason "stop"', () => {
    const r = streamAt({ workersMin: 1, llm: LLM }, 0, chat({ max_completion_tokens: 500 }));
    expect(tokenChunks(r)).toHaveLength(20);
    expect(parsed(r).at(-1).choices[0].finish_reason).toBe('stop');
  });

  it('drawn timings: the same seed gives the same tokens at the same instants; another seed does not', () => {
    const llm = {
      ttftMs: { dist: 'lognormal', medianMs: 200, p95Ms: 800 },
      interTokenMs: { dist: 'uniform', minMs: 10, maxMs: 60 },
      outputTokens: { dist: 'uniform', minMs: 5, maxMs: 40 },
    };
    const a = streamAt({ workersMin: 1, llm }, 0, chat(), 7);
    const b = streamAt({ workersMin: 1, llm }, 0, chat(), 7);
    const c = streamAt({ workersMin: 1, llm }, 0, chat(), 8);
    expect(b.sse).toEqual(a.sse);
    expect(b.sseAtMs).toEqual(a.sseAtMs);
    expect(c.sseAtMs).not.toEqual(a.sseAtMs);
    // Each gap is its own draw.
    const gaps = a.sseAtMs!.slice(1, tokenChunks(a).length).map((t, i) => t - a.sseAtMs![i]!);
    expect(new Set(gaps).size).toBeGreaterThan(1);
  });

  it("an unstreamed answer sets sseAtMs at the answer for every event (no llm: today's stream, all at the end)", () => {
    const r = streamAt({ workersMin: 1, jobDurationMs: 1500 }, 0, chat({ max_tokens: 4 }));
    expect(r.sse).toHaveLength(4 + 2);
    expect(r.sseAtMs).toEqual([1500, 1500, 1500, 1500, 1500, 1500]);
  });
});

describe('the API on an llm endpoint', () => {
  it('a non-streamed completion: execution time = ttft + (n - 1) gaps, n tokens of text, usage to match', () => {
    const h = harness({ workersMin: 1, llm: LLM });
    const r = h.req('POST', '/openai/v1/chat/completions', chat({ stream: false }));
    h.at(774);
    expect(r.res).toBeUndefined();
    h.at(775);
    expect(r.status).toBe(200);
    expect(r.body.choices[0].finish_reason).toBe('stop');
    expect(r.body.choices[0].message.content.split(' ')).toHaveLength(20);
    expect(r.body.usage.completion_tokens).toBe(20);
  });

  it('the stream answers 200 at the first token and each chunk follows as its token is produced', () => {
    const h = harness({ workersMin: 1, llm: LLM });
    const r = h.req('POST', '/openai/v1/chat/completions', chat());
    h.at(299);
    expect(r.res).toBeUndefined();
    h.at(300);
    expect(r.status).toBe(200);
    const feed = r.res!.feed!;
    expect(feed.events).toHaveLength(1);
    h.at(300 + 9 * 25);
    expect(feed.events).toHaveLength(10);
    expect(feed.ended).toBe(false);
    h.at(775);
    expect(feed.ended).toBe(true);
    expect(feed.events.at(-1)).toBe('[DONE]');
  });

  it('a stream cut by the execution timeout ends with an OpenAI error event (code TIMED_OUT), no [DONE]', () => {
    const h = harness({ workersMin: 1, executionTimeoutMs: 400, llm: LLM });
    const r = h.req('POST', '/openai/v1/chat/completions', chat());
    h.at(1000);
    const feed = r.res!.feed!;
    expect(feed.ended).toBe(true);
    expect(feed.events.at(-1)).not.toBe('[DONE]');
    expect(JSON.parse(feed.events.at(-1)!).error).toMatchObject({ type: 'server_error', code: 'TIMED_OUT' });
    // Tokens at 300, 325, … 375 were sent before the timeout at 400.
    expect(feed.events.length - 1).toBe(4);
  });

  it('a job that fails produces no token: the stream request gets the 500 with code FAILED', () => {
    const h = harness({ workersMin: 1, workload: { failureProbability: 1 }, llm: LLM });
    const r = h.req('POST', '/openai/v1/chat/completions', chat());
    h.at(1000);
    expect(r.status).toBe(500);
    expect(r.body.error).toMatchObject({ type: 'server_error', param: null, code: 'FAILED' });
  });

  it('/run: each token is a /stream item as it is produced; input.max_tokens caps them', () => {
    const h = harness({ workersMin: 1, llm: LLM });
    const id = h.run({ prompt: 'x', max_tokens: 5 }).body.id;
    h.at(300 + 25);
    expect(h.req('GET', `/stream/${id}`).body).toMatchObject({
      status: 'IN_PROGRESS',
      stream: [{ output: expect.any(String) }, { output: expect.stringMatching(/^ \S+$/) }],
    });
    h.at(1000);
    const rest = h.req('GET', `/stream/${id}`).body;
    expect(rest.status).toBe('COMPLETED');
    expect(rest.stream).toHaveLength(3);
    expect(h.status(id).body.executionTime).toBe(300 + 4 * 25);
  });

  it('/run refuses what the token model replaces, and a bad input.max_tokens, naming the field', () => {
    const h = harness({ llm: LLM });
    expect(h.run({ sim: { durationMs: 5 } }).body).toMatchObject({ code: 'API_ERR_BAD_REQUEST', field: 'input.sim.durationMs' });
    expect(h.run({ sim: { chunks: 5 } }).body).toMatchObject({ field: 'input.sim.chunks' });
    expect(h.run({ max_tokens: 0 }).body).toMatchObject({ field: 'input.max_tokens' });
    expect(h.runsync({ max_tokens: 'ten' }).body).toMatchObject({ field: 'input.max_tokens' });
  });

  it('a 429 on the OpenAI route is OpenAI-shaped: type "requests", code "rate_limit_exceeded", the limit as cause', () => {
    const h = harness({ limits: { operations: { openai: { rate: 1 } } } });
    h.req('POST', '/openai/v1/chat/completions', chat());
    const r = h.req('POST', '/openai/v1/chat/completions', chat());
    expect(r.status).toBe(429);
    expect(r.body).toEqual({ error: { message: expect.any(String), type: 'requests', param: null, code: 'rate_limit_exceeded' }, cause: 'rate' });
  });
});

describe('llm config', () => {
  it.each([
    [{ ttftMs: -1, interTokenMs: 25, outputTokens: 20 }, 'endpoints.0.llm.ttftMs'],
    [{ ttftMs: 300, interTokenMs: { dist: 'uniform', minMs: -5, maxMs: 10 }, outputTokens: 20 }, 'endpoints.0.llm.interTokenMs'],
    [{ ttftMs: 300, interTokenMs: 25, outputTokens: 0 }, 'endpoints.0.llm.outputTokens'],
    [{ ttftMs: 300, interTokenMs: 25, outputTokens: { dist: 'constant', ms: 0 } }, 'endpoints.0.llm.outputTokens'],
    [{ ttftMs: 300, interTokenMs: 25, outputTokens: { dist: 'uniform', minMs: 0, maxMs: 10 } }, 'endpoints.0.llm.outputTokens'],
    [{ ttftMs: 300, interTokenMs: 25, outputTokens: { dist: 'empirical', samplesMs: [3, 0] } }, 'endpoints.0.llm.outputTokens'],
    [{ ttftMs: 300, outputTokens: 20 }, 'endpoints.0.llm.interTokenMs'],
  ])('%j is refused naming %s', (llm, path) => {
    const p = parseSimConfig({ endpoints: [{ id: 'ep', llm }] });
    expect(p.ok).toBe(false);
    if (!p.ok) expect(p.issues.map((i) => i.path).join(' ')).toContain(path);
  });
});

describe('the dry run of a scenario with llm', () => {
  it("counts the token model's job time: ttft + (tokens - 1) × gap", () => {
    const sc = scenarioSchema.parse({
      name: 'llm-plan',
      durationMs: 10_000,
      endpoint: { llm: { ttftMs: 300, interTokenMs: 25, outputTokens: 21 } },
      traffic: [{ name: 'c', arrival: { process: 'constant', ratePerSec: 1 }, client: { behaviour: 'openai-chat' } }],
    });
    expect(renderPlan(sc).text).toContain('0.80 s mean job time');
  });
});
