/**
 * The official `openai` npm client, unmodified, against a load-balancing endpoint of `serve`: its
 * base URL `{serve}/lb/{id}` + `/v1`, as against RunPod's `https://{id}.api.runpod.ai/v1`.
 */
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEY, serve, type Served } from '../server/serve-helper.js';

let t: Served;
beforeAll(async () => {
  t = await serve(
    {},
    { endpoints: [{ id: 'chat', type: 'load-balancer', workersMin: 1, workersMax: 1, llm: { ttftMs: 100, interTokenMs: 20, outputTokens: 8 } }] },
    { clock: 'real' },
  );
});
afterAll(() => t.close());

describe('openai client against a load-balancing endpoint', () => {
  const client = () => new OpenAI({ apiKey: KEY, baseURL: `${t.s.balancerUrls.get('chat')}/v1`, maxRetries: 0 });

  it('lists models', async () => {
    const m = await client().models.list();
    expect(m.data.map((x) => x.id)).toEqual(['loadlab-sim']);
  });

  it('streams a chat completion token by token, the worker named in x-runpod-worker-id', async () => {
    const { data: s, response } = await client()
      .chat.completions.create({ model: 'loadlab-sim', messages: [{ role: 'user', content: 'hi' }], max_tokens: 8, stream: true })
      .withResponse();
    expect(response.headers.get('x-runpod-worker-id')).toBe('chat-w1');
    const at: number[] = [];
    let text = '';
    let finish: string | null = null;
    for await (const chunk of s) {
      const d = chunk.choices[0]?.delta.content;
      if (d) {
        text += d;
        at.push(Date.now());
      }
      finish = chunk.choices[0]?.finish_reason ?? finish;
    }
    expect(text.trim().split(' ')).toHaveLength(8);
    expect(finish).toBe('stop'); // the drawn 8 tokens, not cut by max_tokens
    // Progressive: 7 gaps of 20 ms between the first token and the last (a busy machine bunches a few).
    expect(at[at.length - 1]! - at[0]!).toBeGreaterThanOrEqual(100);
  });

  it('answers a plain chat completion', async () => {
    const c = await client().chat.completions.create({ model: 'loadlab-sim', messages: [{ role: 'user', content: 'hello' }], max_tokens: 3 });
    expect(c.object).toBe('chat.completion');
    expect(c.usage).toMatchObject({ completion_tokens: 3 });
  });

  it('a missing worker (strict affinity) is an APIError with the balancer status', async () => {
    const c = new OpenAI({
      apiKey: KEY,
      baseURL: `${t.s.balancerUrls.get('chat')}/v1`,
      maxRetries: 0,
      defaultHeaders: { 'X-Runpod-Worker-Id': 'strict chat-w7' },
    });
    await expect(c.chat.completions.create({ model: 'loadlab-sim', messages: [{ role: 'user', content: 'x' }] })).rejects.toMatchObject({ status: 404 });
  });
});
