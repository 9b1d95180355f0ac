/**
 * The official `runpod-sdk` and the `openai` npm clients, unmodified, against `serve` on a real
 * clock at 100× (a virtual second is 10 wall ms); the token model's streams against a second
 * `serve` in real time (an `llm:` endpoint: 20 tokens 25 ms apart; a batching worker whose
 * iterations slow down as requests share it).
 */
import OpenAI from 'openai';
import runpodSdk from 'runpod-sdk';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { KEY, serve, type Served } from '../server/serve-helper.js';

let t: Served;
let llm: Served;
beforeAll(async () => {
  vi.spyOn(console, 'log').mockImplementation(() => {}); // the SDK prints each poll
  t = await serve(
    { jobDurationMs: 1000 },
    {
      endpoints: [
        { id: 'ep', jobDurationMs: 1000 },
        { id: 'idle', workersMax: 0 },
      ],
    },
    { clock: 'real', speed: 100 },
  );
  llm = await serve(
    {},
    {
      endpoints: [
        { id: 'llm', workersMin: 2, workersMax: 2, llm: { ttftMs: 100, interTokenMs: 25, outputTokens: 20 } },
        { id: 'tight', jobDurationMs: 10, limits: { operations: { openai: { rate: 1 } } } },
        // One batching worker: an iteration of 40 ms, 20 ms more per further sequence (gaps wide
        // enough that a busy machine's stalls, which bunch a few tokens, cannot blur them).
        { id: 'batched', workersMin: 1, workersMax: 1, workerConcurrency: 8, llm: { engine: { decodeMs: 40, perSequenceMs: 20 }, outputTokens: 12 } },
      ],
    },
    { clock: 'real' },
  );
});
afterAll(async () => {
  await t.close();
  await llm.close();
});

describe('runpod-sdk', () => {
  const ep = () => runpodSdk(KEY, { baseUrl: t.s.baseUrl }).endpoint('ep')!;

  it('run, then status until COMPLETED', async () => {
    const r = await ep().run({ input: { hello: 'world' } });
    expect(r).toEqual({ id: expect.stringMatching(/-u1$/), status: 'IN_QUEUE' });
    let s: any = await ep().status(r.id);
    // A 10 ms job (1 000 virtual ms at speed 100); up to 10 s of polling for a busy machine.
    for (let i = 0; i < 1000 && s.status !== 'COMPLETED'; i++) {
      await new Promise((x) => setTimeout(x, 10));
      s = await ep().status(r.id);
    }
    expect(s).toMatchObject({ id: r.id, status: 'COMPLETED', output: { hello: 'world' }, completed: true, succeeded: true });
  });

  it('runSync of a short job answers the output in one call', async () => {
    const r: any = await ep().runSync({ input: { n: 1, sim: { durationMs: 500 } } }, 10_000);
    expect(r).toMatchObject({ status: 'COMPLETED', output: { n: 1, sim: { durationMs: 500 } }, completed: true, succeeded: true });
    expect(r.id).toMatch(/^sync-/);
  });

  it('runSync of a job longer than its wait falls back to /status-sync and completes', async () => {
    // wait = 5 s virtual (50 ms wall); the job runs 60 s virtual (600 ms wall).
    const r: any = await ep().runSync({ input: { sim: { durationMs: 60_000 } } }, 5000);
    expect(r).toMatchObject({ status: 'COMPLETED', executionTime: 60_000, completed: true, succeeded: true });
  });

  it('stream yields every partial output', async () => {
    const r = await ep().run({ input: { sim: { chunks: 3, durationMs: 3000 } } });
    const items: unknown[] = [];
    for await (const item of ep().stream(r.id)) items.push(item);
    expect(items).toEqual([{ output: { chunk: 1, of: 3 } }, { output: { chunk: 2, of: 3 } }, { output: { chunk: 3, of: 3 } }]);
  });

  it('cancel, health and purgeQueue', async () => {
    const r = await ep().run({ input: { sim: { durationMs: 600_000 } } });
    expect(await ep().cancel(r.id)).toEqual({ id: r.id, status: 'CANCELLED' });
    const h = await ep().health();
    expect(Object.keys(h.jobs).sort()).toEqual(['completed', 'failed', 'inProgress', 'inQueue', 'retried']);
    expect(h.workers).toMatchObject({ idle: expect.any(Number), running: expect.any(Number) });
    const idle = runpodSdk(KEY, { baseUrl: t.s.baseUrl }).endpoint('idle')!;
    for (let i = 0; i < 3; i++) await idle.run({ input: { i } });
    expect(await idle.purgeQueue()).toEqual({ removed: 3, status: 'completed' });
  });
});

describe('openai client', () => {
  const client = () => new OpenAI({ apiKey: KEY, baseURL: `${t.s.baseUrl}/ep/openai/v1`, maxRetries: 0 });

  it('lists models', async () => {
    const m = await client().models.list();
    expect(m.data.map((x) => x.id)).toEqual(['loadlab-sim']);
  });

  it('answers a chat completion', async () => {
    const c = await client().chat.completions.create({ model: 'loadlab-sim', messages: [{ role: 'user', content: 'hello there' }], max_tokens: 5 });
    expect(c.object).toBe('chat.completion');
    expect(c.choices[0]!.message.role).toBe('assistant');
    expect(c.choices[0]!.message.content!.split(' ')).toHaveLength(5);
    expect(c.usage).toMatchObject({ completion_tokens: 5 });
  });

  it('streams a chat completion', async () => {
    const s = await client().chat.completions.create({ model: 'loadlab-sim', messages: [{ role: 'user', content: 'hi' }], max_tokens: 4, stream: true });
    let text = '';
    let finish: string | null = null;
    for await (const chunk of s) {
      text += chunk.choices[0]?.delta.content ?? '';
      finish = chunk.choices[0]?.finish_reason ?? finish;
    }
    expect(text.trim().split(' ')).toHaveLength(4);
    expect(finish).toBe('stop');
  });

  it('a wrong key is an AuthenticationError', async () => {
    const bad = new OpenAI({ apiKey: 'nope', baseURL: `${t.s.baseUrl}/ep/openai/v1`, maxRetries: 0 });
    await expect(bad.models.list()).rejects.toBeInstanceOf(OpenAI.AuthenticationError);
  });
});

describe('openai client against an llm: endpoint (real time)', () => {
  const client = (ep: string) => new OpenAI({ apiKey: KEY, baseURL: `${llm.s.baseUrl}/${ep}/openai/v1`, maxRetries: 0 });
  const hi = [{ role: 'user' as const, content: 'hi' }];

  it('streams tokens as they are produced: the first well before the last, spread about 19 × 25 ms', async () => {
    const t0 = performance.now();
    const s = await client('llm').chat.completions.create({ model: 'loadlab-sim', messages: hi, stream: true });
    const at: number[] = [];
    let finish: string | null = null;
    for await (const chunk of s) {
      if (chunk.choices[0]?.delta.content) at.push(performance.now() - t0);
      finish = chunk.choices[0]?.finish_reason ?? finish;
    }
    expect(at).toHaveLength(20);
    expect(finish).toBe('stop');
    // First token after ~100 ms (ttft), the last ~475 ms later: never all at once.
    const spread = at[19]! - at[0]!;
    expect(spread).toBeGreaterThan(19 * 25 * 0.7);
    expect(spread).toBeLessThan(19 * 25 + 400);
    expect(at[0]!).toBeLessThan(at[19]! - 300);
  });

  it('max_tokens below the drawn count: exactly max_tokens tokens, finish_reason "length", usage with include_usage', async () => {
    const s = await client('llm').chat.completions.create({
      model: 'loadlab-sim',
      messages: hi,
      stream: true,
      max_tokens: 5,
      stream_options: { include_usage: true },
    });
    let tokens = 0;
    let finish: string | null = null;
    let usage: OpenAI.CompletionUsage | undefined;
    for await (const chunk of s) {
      if (chunk.choices[0]?.delta.content) tokens++;
      finish = chunk.choices[0]?.finish_reason ?? finish;
      usage = chunk.usage ?? usage;
    }
    expect(tokens).toBe(5);
    expect(finish).toBe('length');
    expect(usage).toMatchObject({ completion_tokens: 5 });
  });

  it('a 429 is a RateLimitError with code rate_limit_exceeded and type requests', async () => {
    const c = client('tight');
    await c.chat.completions.create({ model: 'loadlab-sim', messages: hi, max_tokens: 1 });
    const e = await c.chat.completions.create({ model: 'loadlab-sim', messages: hi, max_tokens: 1 }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(OpenAI.RateLimitError);
    expect((e as InstanceType<typeof OpenAI.RateLimitError>).code).toBe('rate_limit_exceeded');
    expect((e as InstanceType<typeof OpenAI.RateLimitError>).type).toBe('requests');
  });

  it('a batching worker: four streams at once share its iterations, each token slower than alone', async () => {
    /** Content chunk instants (ms from the request) of one streamed completion. */
    const stream = async (): Promise<number[]> => {
      const t0 = performance.now();
      const s = await client('batched').chat.completions.create({ model: 'loadlab-sim', messages: hi, stream: true });
      const at: number[] = [];
      for await (const chunk of s) if (chunk.choices[0]?.delta.content) at.push(performance.now() - t0);
      return at;
    };
    const medianGap = (at: number[]) => {
      const g = at.slice(1).map((t, i) => t - at[i]!);
      return g.sort((a, b) => a - b)[g.length >> 1]!;
    };
    const alone = await stream();
    const four = await Promise.all([stream(), stream(), stream(), stream()]);
    expect(alone).toHaveLength(12);
    for (const at of four) expect(at).toHaveLength(12);
    // Alone: 40 ms an iteration; four in the batch: 40 + 3 × 20 = 100 ms (a busy machine adds a little).
    expect(medianGap(alone)).toBeGreaterThan(25);
    expect(medianGap(alone)).toBeLessThan(65);
    for (const at of four) {
      expect(medianGap(at)).toBeGreaterThan(70);
      expect(medianGap(at)).toBeLessThan(140);
    }
  });
});
