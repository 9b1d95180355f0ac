/**
 * Prefix caching in the batching engine (`llm.engine.prefixCaching`) against hand-computed
 * iteration schedules, through the API in process: token instants of streamed chat completions,
 * their usage (`prompt_tokens_details.cached_tokens`), the engine's counters and gauges.
 * Engine: an iteration lasts 10 ms + 2 ms per further sequence + 0.5 ms per prompt token in it.
 * A prompt is characters / 4 tokens; a block is 64 characters (16 tokens), identified by its text
 * and all the text before it.
 */
import { describe, expect, it } from 'vitest';
import { parseSimConfig, type EndpointConfigInput } from '../../src/contract/endpoint-config.js';
import { InProcessTarget } from '../../src/load/targets/in-process/in-process-target.js';
import { Simulator } from '../../src/sim/simulator.js';
import type { TargetResponse } from '../../src/load/targets/target.js';
import { streamChats, tokenTimes, usage } from '../helpers/engine-streams.js';

const ENGINE = { decodeMs: 10, perSequenceMs: 2, prefillMsPerToken: 0.5, prefixCaching: true };
/** `n` blocks (16 tokens each) of the letter `c`. */
const blocks = (c: string, n: number) => c.repeat(64 * n);

function endpoint(engine: Record<string, unknown> = {}, outputTokens = 5): Partial<EndpointConfigInput> {
  return { workersMin: 1, workersMax: 1, workerConcurrency: 4, llm: { engine: { ...ENGINE, ...engine }, outputTokens } };
}

interface Send {
  atMs: number;
  text: string;
  maxTokens?: number;
}

/** Streamed chat completions (usage included) sent at the given instants; the answers, and the simulator. */
const streams = (ep: Partial<EndpointConfigInput>, sends: Send[]) =>
  streamChats(
    ep,
    sends.map((s) => ({ atMs: s.atMs, content: s.text, maxTokens: s.maxTokens })),
  );

const cached = (r: TargetResponse) => usage(r)?.prompt_tokens_details?.cached_tokens;

describe('prefix caching: what a joining prompt prefills', () => {
  it('a second prompt sharing a 3-block prefix on the same worker prefills only the rest', () => {
    // A: 3 blocks of a + 1 of b = 64 tokens, alone: 10 + 64 × 0.5 = 42, then 10 ms a token (ends at 82).
    // B at 100: the same 3 blocks + 1 of c: 48 tokens cached, 16 prefilled: 100 + 10 + 8 = 118.
    const sends = [
      { atMs: 0, text: blocks('a', 3) + blocks('b', 1) },
      { atMs: 100, text: blocks('a', 3) + blocks('c', 1) },
    ];
    const { out, sim } = streams(endpoint(), sends);
    expect(tokenTimes(out[0]!)).toEqual([42, 52, 62, 72, 82]);
    expect(tokenTimes(out[1]!)).toEqual([118, 128, 138, 148, 158]);
    expect(usage(out[0]!)).toEqual({ prompt_tokens: 64, completion_tokens: 5, total_tokens: 69, prompt_tokens_details: { cached_tokens: 0 } });
    expect(cached(out[1]!)).toBe(48);
    expect(sim.endpoints.get('ep')!.engines).toMatchObject({ prefixQueries: 128, prefixHits: 48 });
    // Without prefix caching B prefills its 64 tokens as A did, and the usage has no details.
    const off = streams(endpoint({ prefixCaching: false }), sends);
    expect(tokenTimes(off.out[1]!)).toEqual([142, 152, 162, 172, 182]);
    expect(usage(off.out[1]!)).toEqual({ prompt_tokens: 64, completion_tokens: 5, total_tokens: 69 });
    expect(off.sim.endpoints.get('ep')!.engines).toMatchObject({ prefixQueries: 0, prefixHits: 0 });
  });

  it('a prompt cached whole still prefills its last block (vLLM computes at least its last token)', () => {
    // The same 64 tokens again: 3 of its 4 blocks count (the 4th holds the last token): 100 + 10 + 8.
    const text = blocks('a', 4);
    const { out } = streams(endpoint(), [
      { atMs: 0, text },
      { atMs: 100, text },
    ]);
    expect(cached(out[1]!)).toBe(48);
    expect(tokenTimes(out[1]!)).toEqual([118, 128, 138, 148, 158]);
  });

  it('a partial last block is never cached; a different first block shares nothing after it', () => {
    // A: 2 blocks + 40 characters (10 tokens): 42 tokens. B: the same text: its 2 full blocks hit.
    // C: 1 block of z, then A's text from its second block: the chained ids differ, nothing hits.
    const a = blocks('a', 1) + blocks('b', 1) + 'x'.repeat(40);
    const { out } = streams(endpoint(), [
      { atMs: 0, text: a },
      { atMs: 100, text: a },
      { atMs: 200, text: blocks('z', 1) + blocks('b', 1) + 'x'.repeat(40) },
    ]);
    expect(out.map(cached)).toEqual([0, 32, 0]);
  });

  it('prompts joining in the same iteration share the blocks the first one brings', () => {
    // Both at 0: A joins first and brings its 4 blocks, B then finds 3 of them: the iteration
    // prefills 64 + 16 tokens: 10 + 2 + 40 = 52, then 12 ms for two.
    const { out } = streams(endpoint(), [
      { atMs: 0, text: blocks('a', 3) + blocks('b', 1) },
      { atMs: 0, text: blocks('a', 3) + blocks('c', 1) },
    ]);
    expect(tokenTimes(out[0]!)).toEqual([52, 64, 76, 88, 100]);
    expect(tokenTimes(out[1]!)).toEqual([52, 64, 76, 88, 100]);
    expect(out.map(cached)).toEqual([0, 48]);
  });
});

describe('prefix caching in a bounded KV cache', () => {
  it('blocks shared by running sequences count once: two prompts fit together where they would not apart', () => {
    // kvCacheTokens 112: 7 blocks. A and B have 4 blocks each, 3 shared. Without caching 4 + 4 > 7:
    // B waits for A (A: 10 + 32 = 42, ends at 82; B: 82 + 42 = 124 …). With caching B takes 1 more
    // block (5 in all) and joins A; decoding, each grows by a private block: 5 + 2 = 7 ≤ 7.
    const sends = [
      { atMs: 0, text: blocks('a', 3) + blocks('b', 1) },
      { atMs: 0, text: blocks('a', 3) + blocks('c', 1) },
    ];
    const off = streams(endpoint({ kvCacheTokens: 112, prefixCaching: false }), sends).out;
    expect(tokenTimes(off[1]!)).toEqual([124, 134, 144, 154, 164]);
    const { out, sim } = streams(endpoint({ kvCacheTokens: 112 }), sends);
    expect(tokenTimes(out[0]!)).toEqual([52, 64, 76, 88, 100]);
    expect(tokenTimes(out[1]!)).toEqual([52, 64, 76, 88, 100]);
    expect(sim.endpoints.get('ep')!.engines.preemptions).toBe(0);
  });

  it('the gauge counts a shared block once; freed blocks stay cached but are not in use', () => {
    const p = parseSimConfig({ seed: 1, endpoints: [{ id: 'ep', ...endpoint({ kvCacheTokens: 112 }) }] });
    if (!p.ok) throw new Error(JSON.stringify(p.issues));
    const sim = new Simulator(p.config);
    const t = new InProcessTarget(sim, 'ep');
    for (const c of ['b', 'c']) {
      const body = { messages: [{ role: 'user', content: blocks('a', 3) + blocks(c, 1) }], stream: true };
      t.send({ op: 'openai', method: 'POST', path: '/openai/v1/chat/completions', body, timeoutMs: 600_000 }, () => {});
    }
    const e = sim.endpoints.get('ep')!.engines;
    sim.runUntil(1);
    // 3 shared + 1 + 1: 5 blocks in use, not 8.
    expect(e.usedBlocks).toBe(5);
    // From 52 both decode: each holds ceil(65 / 16) = 5 blocks, 2 private: 7.
    sim.runUntil(60);
    expect(e.usedBlocks).toBe(7);
    sim.runUntil(1000);
    expect(e).toMatchObject({ running: 0, usedBlocks: 0 });
  });

  it('room is made by evicting the least recently used free blocks, a prompt’s last block first', () => {
    // Prompts of 2 blocks + 1 token (33 tokens: 2 cacheable blocks, 3 blocks held with the answer).
    // kvCacheTokens 96: 6 blocks. A (x) then B (y) run and end: free cached x1 x0 y1 y0 (each freed
    // last block first). C (z) takes 3 blocks: 3 + 4 free > 6, x1 (least recently used) goes.
    // D (x again) finds x0 but not x1: 16 tokens cached. Unbounded, D finds both: 32.
    const p = (c: string) => blocks(c, 2) + 'qqqq';
    const sends = ['x', 'y', 'z', 'x'].map((c, i) => ({ atMs: 100 * i, text: p(c) }));
    expect(streams(endpoint({ kvCacheTokens: 96 }), sends).out.map(cached)).toEqual([0, 0, 0, 16]);
    expect(streams(endpoint(), sends).out.map(cached)).toEqual([0, 0, 0, 32]);
    expect(streams(endpoint({ kvCacheTokens: 1024 }), sends).out.map(cached)).toEqual([0, 0, 0, 32]);
  });

  it('a sequence growing into the last free room evicts then, before a sequence ending at that iteration frees its own', () => {
    // kvCacheTokens 80: 5 blocks. X (1 block of x + 1 token: x0 and a private block) runs and
    // ends: x0 stays cached, free. A (a0 + 1 token: 17 tokens, 2 blocks) and B (10 tokens of its own,
    // 1 block) join together: 3 held + x0 free = 4. B grows to 2 blocks 7 iterations on (5), A to 3
    // blocks 16 on: 6 > 5, x0 is evicted then — in the iteration that is B's last (17 tokens). That B
    // frees its blocks as the iteration ends does not bring x0 back: C, X's prompt again, finds nothing.
    const x = blocks('x', 1) + 'qqqq';
    const sends = [
      { atMs: 0, text: x, maxTokens: 5 },
      { atMs: 100, text: blocks('a', 1) + 'qqqq', maxTokens: 20 },
      { atMs: 100, text: 'q'.repeat(40), maxTokens: 17 },
      { atMs: 400, text: x, maxTokens: 5 },
    ];
    const { out, sim } = streams(endpoint({ kvCacheTokens: 80 }, 30), sends);
    expect(out.map((r) => tokenTimes(r).length)).toEqual([5, 20, 17, 5]);
    expect(out.map(cached)).toEqual([0, 0, 0, 0]);
    expect(sim.endpoints.get('ep')!.engines.preemptions).toBe(0);
    // One block more and nothing is evicted: C finds x0.
    expect(streams(endpoint({ kvCacheTokens: 96 }, 30), sends).out.map(cached)).toEqual([0, 0, 0, 16]);
  });

  it('a worker that crashes loses its cache', () => {
    // B's crash directive kills the worker; C, the same prompt as A after the restart, finds nothing.
    const p = parseSimConfig({ seed: 1, endpoints: [{ id: 'ep', ...endpoint({}, 4), coldStartMs: 0 }] });
    if (!p.ok) throw new Error(JSON.stringify(p.issues));
    const sim = new Simulator(p.config);
    const t = new InProcessTarget(sim, 'ep');
    const text = blocks('a', 3) + 'qqqq';
    const send = (input: unknown) => t.send({ op: 'run', method: 'POST', path: '/run', body: { input }, timeoutMs: 600_000 }, () => {});
    send({ prompt: text });
    sim.runUntil(100);
    const e = sim.endpoints.get('ep')!.engines;
    expect(e).toMatchObject({ prefixQueries: 49, prefixHits: 0 });
    send({ prompt: 'other', sim: { crash: true } });
    sim.runUntil(200);
    send({ prompt: text });
    sim.runUntil(300);
    expect(e.prefixHits).toBe(0);
  });
});

describe('prefix caching: configuration', () => {
  it('a value that is not a boolean is refused, naming the field', () => {
    const p = parseSimConfig({ seed: 1, endpoints: [{ id: 'ep', ...endpoint({ prefixCaching: 'yes' }) }] });
    expect(p.ok).toBe(false);
    if (p.ok) return;
    expect(JSON.stringify(p.issues)).toContain('prefixCaching');
  });
});
