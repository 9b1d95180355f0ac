/**
 * The batching engine's KV cache, context cap and API front end (`llm.engine.kvCacheTokens`,
 * `frontEndMs`, `apiServerCount`) against hand-computed iteration schedules, through the API in
 * process: token instants of streamed chat completions, job statuses, the engine gauges.
 * Engine: an iteration lasts 10 ms + 2 ms per further sequence + 0.5 ms per prompt token in it.
 * Prompts are characters / 4 tokens; the cache holds floor(kvCacheTokens / 16) blocks of 16 tokens,
 * a sequence holds blocks(prompt + tokens fed so far) = ceil((fill + k) / 16) in the k-th iteration
 * after its first token's.
 */
import { describe, expect, it } from 'vitest';
import type { EndpointConfigInput } from '../../src/contract/endpoint-config.js';
import type { TargetResponse } from '../../src/load/targets/target.js';
import { tokenPieces } from '../../src/sim/token-text.js';
import { chunks, streamChats, tokenTimes, usage } from '../helpers/engine-streams.js';
import { harness } from '../helpers/harness.js';

const ENGINE = { decodeMs: 10, perSequenceMs: 2, prefillMsPerToken: 0.5 };
/** A prompt of `n` tokens (4 characters a token). */
const prompt = (n: number) => 'x'.repeat(4 * n);

function endpoint(engine: Record<string, number> = {}, outputTokens = 5): Partial<EndpointConfigInput> {
  return { workersMin: 1, workersMax: 1, workerConcurrency: 4, llm: { engine: { ...ENGINE, ...engine }, outputTokens } };
}

interface Send {
  atMs: number;
  promptTokens: number;
}

/** Streamed chat completions (usage included) sent at the given instants; the answers once the run is over, and the simulator. */
const streams = (ep: Partial<EndpointConfigInput>, sends: Send[]) =>
  streamChats(
    ep,
    sends.map((s) => ({ atMs: s.atMs, content: prompt(s.promptTokens) })),
  );

/** The content pieces of a stream, in order. */
const pieces = (r: TargetResponse): string[] => chunks(r).flatMap((c) => (c.choices[0]?.delta?.content !== undefined ? [c.choices[0].delta.content] : []));
const finishReason = (r: TargetResponse) => chunks(r).find((c) => c.choices[0]?.finish_reason)?.choices[0].finish_reason;
/** The job id behind a stream (its chunks' id is `chatcmpl-<job id>`). */
const jobIdOf = (r: TargetResponse): string => chunks(r)[0].id.replace(/^chatcmpl-/, '');
/** `t0 + step × k` for k = 0 … n − 1. */
const every = (t0: number, step: number, n: number) => Array.from({ length: n }, (_, k) => t0 + step * k);

describe('KV cache: admission', () => {
  it('two prompts that do not fit together: the second waits in the worker until the first ends, then prefills alone', () => {
    // kvCacheTokens 48: 3 blocks (context 48, room 16 ≥ 5 for a 32-token prompt). A's 32 tokens hold 2
    // blocks, B's would need 2 more: 4 > 3, B waits. A alone: prefill 10 + 32 × 0.5 = 26 ms, then 10 ms a
    // token (it grows to 33…36 tokens: 3 blocks). A ends at 66; B joins then: 66 + 26 = 92, then 10 ms.
    const sends = [
      { atMs: 0, promptTokens: 32 },
      { atMs: 0, promptTokens: 32 },
    ];
    const { out } = streams(endpoint({ kvCacheTokens: 48 }), sends);
    expect(tokenTimes(out[0]!)).toEqual([26, 36, 46, 56, 66]);
    expect(tokenTimes(out[1]!)).toEqual([92, 102, 112, 122, 132]);
    // kvCacheTokens 128: 8 blocks; 2 + 2 join together, 3 + 3 while decoding. Prefill together
    // 10 + 2 + 64 × 0.5 = 44 ms, then 12 ms an iteration for two.
    const big = streams(endpoint({ kvCacheTokens: 128 }), sends).out;
    expect(tokenTimes(big[0]!)).toEqual([44, 56, 68, 80, 92]);
    expect(tokenTimes(big[1]!)).toEqual([44, 56, 68, 80, 92]);
  });

  it('the waiting job is IN_PROGRESS on the worker; the gauges show one running, one waiting and the blocks held', () => {
    const h = harness(endpoint({ kvCacheTokens: 48 }));
    const a = h.run({ prompt: prompt(32) }).body.id;
    const b = h.run({ prompt: prompt(32) }).body.id;
    h.at(1);
    expect(h.status(b).body).toMatchObject({ status: 'IN_PROGRESS', workerId: 'ep-w1' });
    expect(h.req('GET', '/health').body).toMatchObject({ jobs: { inProgress: 2, inQueue: 0 }, workers: { running: 1 } });
    // A's prompt: ceil(32 / 16) = 2 blocks.
    expect(h.ep.engines).toMatchObject({ running: 1, waiting: 1, usedBlocks: 2, preemptions: 0 });
    // From 26 A decodes: in its 1st iteration after its first token it holds ceil(33 / 16) = 3 blocks.
    h.at(30);
    expect(h.ep.engines).toMatchObject({ running: 1, waiting: 1, usedBlocks: 3 });
    h.at(66);
    expect(h.status(a).body).toMatchObject({ status: 'COMPLETED', executionTime: 66 });
    // B joined at 66 with its 2 blocks.
    expect(h.ep.engines).toMatchObject({ running: 1, waiting: 0, usedBlocks: 2 });
    h.at(131);
    expect(h.status(b).body.status).toBe('IN_PROGRESS');
    h.at(132);
    expect(h.status(b).body).toMatchObject({ status: 'COMPLETED', delayTime: 0, executionTime: 132 });
    expect(h.ep.engines).toMatchObject({ running: 0, waiting: 0, usedBlocks: 0, preemptions: 0 });
  });

  it('FIFO: a waiting job that does not fit stops a smaller one behind it', () => {
    // kvCacheTokens 64: 4 blocks. A 32 tokens (2 blocks) joins; B 40 tokens (3 blocks): 5 > 4, waits;
    // C 8 tokens (1 block) would fit (3 ≤ 4) but is behind B. A alone: 26, 36, 46, 56, 66 (36 tokens at
    // most: 3 blocks). At 66 B (3) and C (1) join: 4 ≤ 4. Prefill 10 + 2 + 48 × 0.5 = 36 ms → 102, then
    // 12 ms for two (B holds ceil(44 / 16) = 3 blocks at most, C 1).
    const { out } = streams(endpoint({ kvCacheTokens: 64 }), [
      { atMs: 0, promptTokens: 32 },
      { atMs: 0, promptTokens: 40 },
      { atMs: 0, promptTokens: 8 },
    ]);
    expect(tokenTimes(out[0]!)).toEqual([26, 36, 46, 56, 66]);
    expect(tokenTimes(out[1]!)).toEqual([102, 114, 126, 138, 150]);
    expect(tokenTimes(out[2]!)).toEqual([102, 114, 126, 138, 150]);
  });

  it('a job arriving while another decodes joins at the next boundary only if its blocks are free then', () => {
    // A: 8-token prompt (1 block), alone: 14, 24, 34, 44, 54. B (32 tokens, 2 blocks) ready at 20 is
    // for the iteration beginning at 24, where A holds ceil(10 / 16) = 1 block.
    // kvCacheTokens 64 (4 blocks): 1 + 2 ≤ 4, B joins at 24: 10 + 2 + 32 × 0.5 = 28 ms → 52; then A holds
    // 1, B ceil(33…36 / 16) = 3: 4 ≤ 4. 12 ms for two: 64, 76 (A's last); B alone: 86, 96.
    const fits = streams(endpoint({ kvCacheTokens: 64 }), [
      { atMs: 0, promptTokens: 8 },
      { atMs: 20, promptTokens: 32 },
    ]).out;
    expect(tokenTimes(fits[0]!)).toEqual([14, 24, 52, 64, 76]);
    expect(tokenTimes(fits[1]!)).toEqual([52, 64, 76, 86, 96]);
    // kvCacheTokens 48 (3 blocks), B of 40 tokens (3 blocks): 1 + 3 > 3, B waits for A's end at 54:
    // 10 + 40 × 0.5 = 30 ms → 84, then 10 ms (ceil(44 / 16) = 3 blocks at most; room 48 − 40 = 8 ≥ 5).
    const waits = streams(endpoint({ kvCacheTokens: 48 }), [
      { atMs: 0, promptTokens: 8 },
      { atMs: 20, promptTokens: 40 },
    ]).out;
    expect(tokenTimes(waits[0]!)).toEqual([14, 24, 34, 44, 54]);
    expect(tokenTimes(waits[1]!)).toEqual([84, 94, 104, 114, 124]);
  });
});

describe('KV cache: preemption', () => {
  // kvCacheTokens 48: 3 blocks (context 48). Two 8-token prompts, 12 tokens each: both join at 0
  // (1 block each) and prefill together: 10 + 2 + 16 × 0.5 = 20 ms; token 0 of both at 20 (iteration 0).
  // In iteration k each holds ceil((8 + k) / 16) blocks: 1 up to k = 8, 2 from k = 9: 4 > 3. So
  // iterations 1…8 end at 32, 44, …, 116 (12 ms for two) and at the start of iteration 9 (116) B,
  // the newer, is preempted with 9 tokens out (0…8). A alone (2 blocks): 126, 136, 146 (its tokens
  // 9, 10, 11): A ends at 146. B can not rejoin before (2 + ceil(17 / 16) = 4 > 3). At 146 B joins
  // and prefills 8 + 9 = 17 tokens: 10 + 17 × 0.5 = 18.5 ms → token 9 at 164.5, then 174.5, 184.5.
  const A = [...every(20, 12, 9), 126, 136, 146];
  const B = [...every(20, 12, 9), 164.5, 174.5, 184.5];
  const sends = [
    { atMs: 0, promptTokens: 8 },
    { atMs: 0, promptTokens: 8 },
  ];

  it('the newer sequence is preempted where the blocks run out, keeps its streamed tokens and recomputes them later', () => {
    const { out, sim } = streams(endpoint({ kvCacheTokens: 48 }, 12), sends);
    expect(tokenTimes(out[0]!)).toEqual(A);
    expect(tokenTimes(out[1]!)).toEqual(B);
    expect(sim.endpoints.get('ep')!.engines.preemptions).toBe(1);
    // Every token once, in order: the job's completion words 0…11.
    for (const r of out) {
      expect(pieces(r)).toEqual(tokenPieces(jobIdOf(r), 0, 12));
      expect(finishReason(r)).toBe('stop');
      expect(usage(r)).toMatchObject({ completion_tokens: 12 });
    }
    // The same text as without a cache (same seed, same job ids).
    const free = streams(endpoint({}, 12), sends).out;
    expect(pieces(out[1]!)).toEqual(pieces(free[1]!));
  });

  it('job status and gauges through the preemption', () => {
    const h = harness(endpoint({ kvCacheTokens: 48 }, 12));
    const a = h.run({ prompt: prompt(8) }).body.id;
    const b = h.run({ prompt: prompt(8) }).body.id;
    // Iteration 8 (104…116): both hold 1 block.
    h.at(110);
    expect(h.ep.engines).toMatchObject({ running: 2, waiting: 0, usedBlocks: 2, preemptions: 0 });
    // Iteration 9 (116…126): B preempted; A holds ceil(17 / 16) = 2 blocks.
    h.at(120);
    expect(h.ep.engines).toMatchObject({ running: 1, waiting: 1, usedBlocks: 2, preemptions: 1 });
    expect(h.status(b).body).toMatchObject({ status: 'IN_PROGRESS', workerId: 'ep-w1' });
    h.at(146);
    expect(h.status(a).body).toMatchObject({ status: 'COMPLETED', executionTime: 146 });
    // B back in with its 17 tokens: 2 blocks.
    expect(h.ep.engines).toMatchObject({ running: 1, waiting: 0, usedBlocks: 2, preemptions: 1 });
    // B's last token at 184.5: the job ends at 185.
    h.at(184);
    expect(h.status(b).body.status).toBe('IN_PROGRESS');
    h.at(185);
    expect(h.status(b).body).toMatchObject({ status: 'COMPLETED', executionTime: 185 });
    expect(h.ep.engines).toMatchObject({ running: 0, waiting: 0, usedBlocks: 0, preemptions: 1 });
  });

  it('a sequence that fits when it joins but not one token later is preempted right after its first token', () => {
    // kvCacheTokens 48 (3 blocks). A: 8 tokens, alone 14, 24. B: 32 tokens, ready at 20, joins at 24
    // (A 1 block + B 2 = 3 ≤ 3): 10 + 2 + 16 = 28 ms → 52, B's token 0 and A's token 2. In the next
    // iteration B holds ceil(33 / 16) = 3, A 1: 4 > 3, B is preempted with 1 token out. A alone: 62, 72
    // (its last). At 72 B rejoins with 32 + 1 = 33 tokens (3 blocks): 10 + 33 × 0.5 = 26.5 ms → 98.5,
    // then 10 ms (ceil(36 / 16) = 3 blocks at most).
    const { out, sim } = streams(endpoint({ kvCacheTokens: 48 }), [
      { atMs: 0, promptTokens: 8 },
      { atMs: 20, promptTokens: 32 },
    ]);
    expect(tokenTimes(out[0]!)).toEqual([14, 24, 52, 62, 72]);
    expect(tokenTimes(out[1]!)).toEqual([52, 98.5, 108.5, 118.5, 128.5]);
    expect(pieces(out[1]!)).toEqual(tokenPieces(jobIdOf(out[1]!), 0, 5));
    expect(sim.endpoints.get('ep')!.engines.preemptions).toBe(1);
  });
});

describe('context cap (the cache whole blocks)', () => {
  it('an answer that would run past the context is cut there: finish_reason length, context − prompt tokens', () => {
    // kvCacheTokens 40: floor(40 / 16) = 2 blocks, context 32. Prompt 8: room 24 < 30 → 24 tokens, cut.
    // Alone: 14 ms prefill (10 + 8 × 0.5), then 10 ms a token: 14 … 244 (8 + 23 = 31 tokens: 2 blocks).
    const [cut] = streams(endpoint({ kvCacheTokens: 40 }, 30), [{ atMs: 0, promptTokens: 8 }]).out;
    expect(tokenTimes(cut!)).toEqual(every(14, 10, 24));
    expect(finishReason(cut!)).toBe('length');
    expect(usage(cut!)).toMatchObject({ completion_tokens: 24 });
    // An answer of exactly the room is not cut.
    const [exact] = streams(endpoint({ kvCacheTokens: 40 }, 24), [{ atMs: 0, promptTokens: 8 }]).out;
    expect(tokenTimes(exact!)).toEqual(every(14, 10, 24));
    expect(finishReason(exact!)).toBe('stop');
    // A prompt of 31 tokens leaves room for one: 10 + 31 × 0.5 = 25.5 ms.
    const [one] = streams(endpoint({ kvCacheTokens: 40 }, 30), [{ atMs: 0, promptTokens: 31 }]).out;
    expect(tokenTimes(one!)).toEqual([25.5]);
    expect(finishReason(one!)).toBe('length');
    expect(usage(one!)).toMatchObject({ completion_tokens: 1 });
  });

  it('a prompt that leaves no room for a token fails the job, naming its tokens and the context', () => {
    const h = harness(endpoint({ kvCacheTokens: 40 }, 30));
    // 32 tokens ≥ the context of 32. Its run is one unseen token of a 1-token prompt: 10 + 0.5 = 10.5 ms,
    // the job ends at 11.
    const id = h.run({ prompt: prompt(32) }).body.id;
    h.at(10);
    expect(h.status(id).body.status).toBe('IN_PROGRESS');
    h.at(11);
    const body = h.status(id).body;
    expect(body).toMatchObject({ status: 'FAILED', executionTime: 11 });
    expect(body.error).toContain('32 tokens');
    expect(body.error).toContain('context of 32 tokens');
    expect(h.req('GET', '/health').body.jobs).toMatchObject({ failed: 1, completed: 0 });
  });
});

describe('front end (frontEndMs per request, apiServerCount processes)', () => {
  const sends = [
    { atMs: 0, promptTokens: 8 },
    { atMs: 0, promptTokens: 8 },
  ];

  it('two requests at the same instant: the second waits for the first in the API server', () => {
    // No front end: both join at 0, prefill 10 + 2 + 16 × 0.5 = 20 ms, then 12 ms for two.
    const none = streams(endpoint(), sends).out;
    expect(tokenTimes(none[0]!)).toEqual([20, 32, 44, 56, 68]);
    expect(tokenTimes(none[1]!)).toEqual([20, 32, 44, 56, 68]);
    // frontEndMs 5, one process: A ready at 5, B at 10. A prefills alone 5…19 (14 ms); B joins at the
    // boundary at 19: 10 + 2 + 8 × 0.5 = 16 ms → 35; then 12 ms for two until A's 5th token at 71,
    // B alone after: 81.
    const one = streams(endpoint({ frontEndMs: 5 }), sends).out;
    expect(tokenTimes(one[0]!)).toEqual([19, 35, 47, 59, 71]);
    expect(tokenTimes(one[1]!)).toEqual([35, 47, 59, 71, 81]);
    // Two processes: both ready at 5, the no-front-end schedule 5 ms later, the same for both.
    const two = streams(endpoint({ frontEndMs: 5, apiServerCount: 2 }), sends).out;
    expect(tokenTimes(two[0]!)).toEqual([25, 37, 49, 61, 73]);
    expect(tokenTimes(two[1]!)).toEqual([25, 37, 49, 61, 73]);
    // overheadMs 3 after the front end (a delay, no queue): A ready at 8, B at 13; A prefills 8…22,
    // B joins at 22: 38, then 12 ms; B alone after 74: 84.
    const over = streams(endpoint({ frontEndMs: 5, overheadMs: 3 }), sends).out;
    expect(tokenTimes(over[0]!)).toEqual([22, 38, 50, 62, 74]);
    expect(tokenTimes(over[1]!)).toEqual([38, 50, 62, 74, 84]);
  });

  it('jobs in the front end count as waiting', () => {
    const h = harness(endpoint({ frontEndMs: 5 }));
    h.run({ prompt: prompt(8) });
    h.run({ prompt: prompt(8) });
    h.at(1);
    expect(h.ep.engines).toMatchObject({ running: 0, waiting: 2 });
    h.at(6);
    expect(h.ep.engines).toMatchObject({ running: 1, waiting: 1 });
    h.at(20);
    expect(h.ep.engines).toMatchObject({ running: 2, waiting: 0 });
  });
});

describe('without kvCacheTokens', () => {
  it('no cache: the unlimited schedule, no preemption, no blocks counted; a large cache changes nothing', () => {
    // The preemption case's two 8-token prompts, 12 tokens each: 20 ms prefill together, then 12 ms for two.
    const sends = [
      { atMs: 0, promptTokens: 8 },
      { atMs: 0, promptTokens: 8 },
    ];
    const { out, sim } = streams(endpoint({}, 12), sends);
    expect(tokenTimes(out[0]!)).toEqual(every(20, 12, 12));
    expect(tokenTimes(out[1]!)).toEqual(every(20, 12, 12));
    expect(sim.endpoints.get('ep')!.engines).toMatchObject({ preemptions: 0, usedBlocks: 0, running: 0, waiting: 0 });
    // 1024 tokens: 64 blocks, the two hold 2 at most.
    const big = streams(endpoint({ kvCacheTokens: 1024 }, 12), sends).out;
    expect(big.map(tokenTimes)).toEqual(out.map(tokenTimes));
    // And a long answer is not cut without a cache: 100 tokens after a 31-token prompt.
    const [long] = streams(endpoint({}, 100), [{ atMs: 0, promptTokens: 31 }]).out;
    expect(tokenTimes(long!)).toHaveLength(100);
    expect(finishReason(long!)).toBe('stop');
  });
});
