/**
 * `serve`'s /metrics on an LLM endpoint (`llm.engine`): vLLM's scheduler gauges and preemption
 * counter after `loadlab_engine_`, labelled by endpoint, at 0 from the start and read from the
 * engines at each scrape. 8 chats of 1024-token prompts on one worker whose KV cache (512 blocks)
 * holds the prompts but not their answers: requests wait inside the worker and are preempted.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { METRIC } from '../../src/contract/metric-names.js';
import { parseProm, value } from '../telemetry/prom-text.js';
import { serve, type Res, type Served } from './serve-helper.js';

let t: Served;
let held: Promise<Res>[] = [];
const ep = { endpoint: 'ep' };
const scrape = async () => parseProm((await t.call('GET', '/metrics', undefined, { auth: null })).text);

beforeAll(async () => {
  t = await serve({
    workersMin: 1,
    workersMax: 1,
    workerConcurrency: 8,
    llm: {
      engine: { decodeMs: 10, perSequenceMs: 0.2, prefillMsPerToken: 0.02, maxNumSeqs: 8, kvCacheTokens: 8192 },
      outputTokens: { dist: 'uniform', minMs: 128, maxMs: 512 },
    },
  });
});
afterAll(async () => {
  await t.advance(600_000);
  await Promise.all(held);
  await t.close();
});

describe('/metrics of an LLM endpoint', () => {
  it('exports the engine series at 0 before any request', async () => {
    const m = await scrape();
    for (const name of [METRIC.engineRunning, METRIC.engineWaiting, METRIC.engineKvCacheUsage, METRIC.enginePreemptions])
      expect(value(m, name, ep), name).toBe(0);
    expect(m.types.get(METRIC.engineRunning)).toBe('gauge');
    expect(m.types.get(METRIC.engineKvCacheUsage)).toBe('gauge');
    expect(m.types.get(METRIC.enginePreemptions)).toBe('counter');
  });

  it('under load: requests running and waiting inside the worker, the cache nearly full, preemptions as the engines count them', async () => {
    await t.advance(60_000); // the worker starts
    held = Array.from({ length: 8 }, () =>
      t.call('POST', '/openai/v1/chat/completions', { model: 'm', messages: [{ role: 'user', content: 'x'.repeat(4096) }], max_tokens: 512 }),
    );
    for (let i = 0; i < 200 && (await t.call('GET', '/_sim/clock')).body.received < 8; i++) await new Promise((r) => setTimeout(r, 5));
    await t.advance(1000);
    const m = await scrape();
    const running = value(m, METRIC.engineRunning, ep)!;
    const waiting = value(m, METRIC.engineWaiting, ep)!;
    // Every job the worker holds is in its batch or waiting for a place in it.
    expect(value(m, METRIC.jobsInProgress, ep)).toBe(8);
    expect(running + waiting).toBe(8);
    expect(running).toBeGreaterThan(0);
    expect(waiting).toBeGreaterThan(0);
    expect(value(m, METRIC.engineKvCacheUsage, ep)).toBeGreaterThan(0.8);
    expect(value(m, METRIC.engineKvCacheUsage, ep)).toBeLessThanOrEqual(1);
    const engines = t.s.sim.endpoints.get('ep')!.engines;
    expect(engines.preemptions).toBeGreaterThan(0);
    expect(value(m, METRIC.enginePreemptions, ep)).toBe(engines.preemptions);
    // The counter keeps counting across scrapes.
    await t.advance(3000);
    expect(value(await scrape(), METRIC.enginePreemptions, ep)).toBe(engines.preemptions);
  });
});

describe('/metrics of an endpoint without an engine', () => {
  it('has no engine series', async () => {
    const plain = await serve({ workersMin: 0 });
    try {
      const text = (await plain.call('GET', '/metrics', undefined, { auth: null })).text;
      expect(text).not.toContain('loadlab_engine_');
    } finally {
      await plain.close();
    }
  });
});
