/**
 * vLLM's `ignore_eos: true` on an `llm:` endpoint: the model does not stop by itself, so the
 * answer is exactly `max_tokens` long (finish_reason "length"), above or below what the token
 * model would draw — alone (ttft + gaps) and in a batching engine; on `/run` as `input.ignore_eos`.
 * This is how a replayed token trace gets each request's own answer length.
 */
import { describe, expect, it } from 'vitest';
import { parseSimConfig } from '../../src/contract/endpoint-config.js';
import { InProcessTarget } from '../../src/load/targets/in-process/in-process-target.js';
import type { TargetResponse } from '../../src/load/targets/target.js';
import { Simulator } from '../../src/sim/simulator.js';
import { harness } from '../helpers/harness.js';

const LLM = { ttftMs: 300, interTokenMs: 25, outputTokens: 20 };
const ENGINE = { engine: { decodeMs: 5, prefillMsPerToken: 0.01 }, outputTokens: 20 };
const chat = (extra: Record<string, unknown>) => ({
  messages: [{ role: 'user', content: 'hello there' }],
  stream: true,
  stream_options: { include_usage: true },
  ...extra,
});

/** The events of a streamed chat answer (in process: the stream reaches the runner whole). */
function answer(llm: Record<string, unknown>, body: Record<string, unknown>) {
  const p = parseSimConfig({ seed: 1, endpoints: [{ id: 'ep', workersMin: 1, workerConcurrency: 4, llm }] });
  if (!p.ok) throw new Error(JSON.stringify(p.issues));
  const sim = new Simulator(p.config);
  let r: TargetResponse | undefined;
  new InProcessTarget(sim, 'ep').send({ op: 'openai', method: 'POST', path: '/openai/v1/chat/completions', body, timeoutMs: 600_000 }, (x) => (r = x));
  sim.runUntil(100_000);
  expect(r?.status).toBe(200);
  return r!.sse!.filter((d) => d !== '[DONE]').map((d) => JSON.parse(d));
}

const usageOf = (chunks: any[]) => chunks.at(-1).usage.completion_tokens;
const finishOf = (chunks: any[]) => chunks.find((c) => c.choices[0]?.finish_reason)?.choices[0].finish_reason;

describe('ignore_eos: exactly max_tokens tokens', () => {
  for (const [name, llm] of [
    ['token model alone', LLM],
    ['batching engine', ENGINE],
  ] as const) {
    it(`${name}: 57 tokens where the model draws 20, 3 where it draws 20; without ignore_eos the draw, capped`, () => {
      expect(usageOf(answer(llm, chat({ max_tokens: 57, ignore_eos: true })))).toBe(57);
      expect(finishOf(answer(llm, chat({ max_tokens: 57, ignore_eos: true })))).toBe('length');
      expect(usageOf(answer(llm, chat({ max_tokens: 3, ignore_eos: true })))).toBe(3);
      expect(usageOf(answer(llm, chat({ max_tokens: 57 })))).toBe(20);
      expect(usageOf(answer(llm, chat({ max_tokens: 57, ignore_eos: false })))).toBe(20);
    });
  }

  it('ignore_eos that is not a boolean: 400 naming the field', () => {
    const h = harness({ llm: LLM });
    const r = h.req('POST', '/openai/v1/chat/completions', chat({ ignore_eos: 'yes' }));
    expect(r.status).toBe(400);
    expect(JSON.stringify(r.body)).toContain('ignore_eos');
  });

  it('/run: input.ignore_eos gives input.max_tokens stream items; a bad one is refused naming the field', () => {
    const h = harness({ workersMin: 1, llm: LLM });
    const id = h.run({ prompt: 'x', max_tokens: 33, ignore_eos: true }).body.id;
    h.at(100_000);
    const s = h.req('GET', `/stream/${id}`).body;
    expect(s.status).toBe('COMPLETED');
    expect(s.stream).toHaveLength(33);
    expect(h.run({ ignore_eos: 1 }).body).toMatchObject({ field: 'input.ignore_eos' });
  });
});
