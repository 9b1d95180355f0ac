/**
 * OpenAI-compatible routes (FACTS): `/openai/v1/models`, `/chat/completions`, `/completions`.
 * A completion is a normal job with input `{openai_route, openai_input}`; the answer waits for the
 * job; `stream: true` answers server-sent event chunks ending in `[DONE]`; the text is a pure
 * function of the job id, so of the seed.
 */
import { describe, expect, it } from 'vitest';
import { harness } from '../helpers/harness.js';

const chat = { model: 'm1', messages: [{ role: 'user', content: 'hello there friend' }], max_tokens: 5 };

describe('/openai/v1/models', () => {
  it('lists the simulated model on GET and POST', () => {
    const h = harness();
    const body = { object: 'list', data: [{ id: 'loadlab-sim', object: 'model', created: 0, owned_by: 'loadlab' }] };
    expect(h.req('GET', '/openai/v1/models').body).toEqual(body);
    expect(h.req('POST', '/openai/v1/models').body).toEqual(body);
  });
});

describe('/openai/v1/chat/completions', () => {
  it('runs a normal job and answers a chat.completion when it ends', () => {
    const h = harness({ jobDurationMs: 1500 });
    const ev = h.events();
    const r = h.req('POST', '/openai/v1/chat/completions', chat);
    expect(r.res).toBeUndefined();
    const j = [...h.ep.jobs.values()][0]!;
    expect(j.input).toEqual({ openai_route: '/v1/chat/completions', openai_input: chat });
    expect(ev.find((e) => e.type === 'job.accepted')).toMatchObject({ kind: 'openai' });
    h.at(1499);
    expect(r.res).toBeUndefined();
    h.at(1500);
    expect(r.atMs).toBe(1500);
    expect(r.status).toBe(200);
    const b = r.body;
    expect(b).toMatchObject({ id: `chatcmpl-${j.id}`, object: 'chat.completion', created: 1, model: 'm1' });
    expect(b.choices).toHaveLength(1);
    expect(b.choices[0]).toMatchObject({ index: 0, finish_reason: 'stop', message: { role: 'assistant' } });
    expect(b.choices[0].message.content.split(' ')).toHaveLength(5);
    expect(b.usage).toEqual({ prompt_tokens: 3 + 1, completion_tokens: 5, total_tokens: 9 });
  });

  it('defaults to 16 completion tokens and the loadlab-sim model', () => {
    const h = harness();
    const r = h.req('POST', '/openai/v1/chat/completions', { messages: [{ role: 'user', content: 'x' }] });
    h.at(1000);
    expect(r.body.model).toBe('loadlab-sim');
    expect(r.body.usage.completion_tokens).toBe(16);
    expect(r.body.choices[0].message.content.split(' ')).toHaveLength(16);
  });

  it('accepts max_completion_tokens', () => {
    const h = harness();
    const r = h.req('POST', '/openai/v1/chat/completions', { messages: [{ role: 'user', content: 'x' }], max_completion_tokens: 3 });
    h.at(1000);
    expect(r.body.usage.completion_tokens).toBe(3);
  });

  it('stream: true answers SSE chunks, first with the role, then a stop chunk, then [DONE]', () => {
    const h = harness();
    const r = h.req('POST', '/openai/v1/chat/completions', { ...chat, stream: true });
    h.at(1000);
    expect(r.res!.status).toBe(200);
    expect(r.res!.body).toBeUndefined();
    const sse = r.res!.sse!;
    expect(sse).toHaveLength(5 + 2);
    expect(sse.at(-1)).toBe('[DONE]');
    const chunks = sse.slice(0, -1).map((s) => JSON.parse(s));
    for (const c of chunks) expect(c).toMatchObject({ object: 'chat.completion.chunk', model: 'm1', created: 1, id: chunks[0].id });
    expect(chunks[0].choices[0].delta.role).toBe('assistant');
    expect(chunks.slice(1, 5).every((c) => c.choices[0].delta.role === undefined && c.choices[0].delta.content.startsWith(' '))).toBe(true);
    expect(chunks[5].choices[0]).toMatchObject({ delta: {}, finish_reason: 'stop' });
    const text = chunks
      .slice(0, 5)
      .map((c) => c.choices[0].delta.content)
      .join('');
    // The streamed text is the text a non-streaming call gets for the same job id.
    const h2 = harness();
    const r2 = h2.req('POST', '/openai/v1/chat/completions', chat);
    h2.at(1000);
    expect(text).toBe(r2.body.choices[0].message.content);
  });

  it('is deterministic for a seed and differs across seeds', () => {
    const text = (seed: number) => {
      const h = harness({}, { seed });
      const r = h.req('POST', '/openai/v1/chat/completions', { ...chat, max_tokens: 12 });
      h.at(1000);
      return r.body.choices[0].message.content as string;
    };
    expect(text(7)).toBe(text(7));
    expect(text(7)).not.toBe(text(8));
  });

  it('answers 500 with an OpenAI error body when the job fails', () => {
    const h = harness({ workload: { failureProbability: 1 } });
    const r = h.req('POST', '/openai/v1/chat/completions', chat);
    h.at(1000);
    expect(r.status).toBe(500);
    expect(r.body).toEqual({
      error: { message: expect.stringContaining('ended FAILED: simulated failure'), type: 'server_error', param: null, code: 'FAILED' },
    });
  });

  it('answers 500 TIMED_OUT when the job runs past its execution timeout', () => {
    const h = harness({ jobDurationMs: 20_000, executionTimeoutMs: 10_000 });
    const r = h.req('POST', '/openai/v1/chat/completions', chat);
    h.at(10_000);
    expect(r.atMs).toBe(10_000);
    expect(r.status).toBe(500);
    expect(r.body.error.code).toBe('TIMED_OUT');
  });

  it('the job is visible through /status while the call is held', () => {
    const h = harness();
    h.req('POST', '/openai/v1/chat/completions', chat);
    const id = [...h.ep.jobs.values()][0]!.id;
    expect(h.status(id).body).toMatchObject({ id, status: 'IN_PROGRESS' });
  });

  it.each([
    [{}, 'messages'],
    [{ messages: [] }, 'messages'],
    [{ messages: 'hi' }, 'messages'],
    [{ messages: [{}], model: 3 }, 'model'],
    [{ messages: [{}], stream: 'yes' }, 'stream'],
    [{ messages: [{}], max_tokens: 0 }, 'max_tokens'],
    [{ messages: [{}], max_tokens: 4097 }, 'max_tokens'],
    [{ messages: [{}], max_tokens: 1.5 }, 'max_tokens'],
    [{ messages: [{}], max_completion_tokens: 0 }, 'max_completion_tokens'],
    [{ messages: [{}], stream_options: 'yes' }, 'stream_options'],
    [{ messages: [{}], stream_options: { include_usage: 1 } }, 'stream_options.include_usage'],
    [[1, 2], 'body'],
  ])('refuses %j with 400 naming %s (an OpenAI invalid_request_error, param the field)', (body, field) => {
    const h = harness();
    const r = h.req('POST', '/openai/v1/chat/completions', body);
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ error: { message: expect.stringMatching(new RegExp(`^${field}: `)), type: 'invalid_request_error', param: field, code: null } });
    expect(h.ep.jobs.size).toBe(0);
  });

  it('only POST is allowed', () => {
    const h = harness();
    expect(h.req('GET', '/openai/v1/chat/completions').body.error).toEqual({
      message: 'GET not allowed; use POST',
      type: 'invalid_request_error',
      param: null,
      code: 'method_not_allowed',
    });
  });
});

describe('/openai/v1/completions', () => {
  it('answers a text_completion with the prompt counted', () => {
    const h = harness();
    const r = h.req('POST', '/openai/v1/completions', { prompt: 'one two three', max_tokens: 4 });
    const j = [...h.ep.jobs.values()][0]!;
    expect(j.input).toEqual({ openai_route: '/v1/completions', openai_input: { prompt: 'one two three', max_tokens: 4 } });
    h.at(1000);
    expect(r.body).toMatchObject({ id: `cmpl-${j.id}`, object: 'text_completion', model: 'loadlab-sim' });
    expect(r.body.choices[0]).toMatchObject({ index: 0, finish_reason: 'stop' });
    expect(r.body.choices[0].text.split(' ')).toHaveLength(4);
    expect(r.body.usage).toEqual({ prompt_tokens: 3, completion_tokens: 4, total_tokens: 7 });
  });

  it('stream: true answers text_completion chunks ending in [DONE]', () => {
    const h = harness();
    const r = h.req('POST', '/openai/v1/completions', { prompt: ['a b'], max_tokens: 2, stream: true });
    h.at(1000);
    const sse = r.res!.sse!;
    expect(sse).toHaveLength(4);
    expect(sse[3]).toBe('[DONE]');
    const chunks = sse.slice(0, 3).map((s) => JSON.parse(s));
    expect(chunks.map((c) => c.object)).toEqual(['text_completion', 'text_completion', 'text_completion']);
    expect(chunks[2].choices[0]).toMatchObject({ text: '', finish_reason: 'stop' });
  });

  it('refuses a missing prompt with 400 naming "prompt"', () => {
    const h = harness();
    expect(h.req('POST', '/openai/v1/completions', { max_tokens: 3 }).body.error).toMatchObject({ type: 'invalid_request_error', param: 'prompt' });
  });
});
