/**
 * `serve` with prefix caching (`llm.engine.prefixCaching`), over HTTP: the answers' usage tells
 * the prompt tokens served from the worker's cache (`prompt_tokens_details.cached_tokens`, as vLLM
 * with --enable-prompt-tokens-details), and /metrics counts the engines' prefix cache queries and
 * hits (vLLM's prefix_cache_queries and prefix_cache_hits, after `loadlab_engine_`), at 0 from the
 * start. Three chats of one 1000-character prompt (250 tokens: 15 full blocks of 16) in turn on
 * one worker: the first finds nothing, each later one 15 × 16 = 240 tokens.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { METRIC } from '../../src/contract/metric-names.js';
import { parseProm, value } from '../telemetry/prom-text.js';
import { serve, type Served } from './serve-helper.js';

let t: Served;
const ep = { endpoint: 'ep' };
const scrape = async () => parseProm((await t.call('GET', '/metrics', undefined, { auth: null })).text);

beforeAll(async () => {
  t = await serve({
    workersMin: 1,
    workersMax: 1,
    workerConcurrency: 4,
    llm: { engine: { decodeMs: 10, prefillMsPerToken: 0.02, kvCacheTokens: 8192, prefixCaching: true }, outputTokens: 8 },
  });
  await t.advance(60_000); // the worker starts
});
afterAll(async () => {
  await t.close();
});

describe('/metrics and usage with prefix caching', () => {
  it('counts queries and hits as the engines do, and each answer tells its cached tokens', async () => {
    const m0 = await scrape();
    expect(value(m0, METRIC.enginePrefixCacheQueries, ep)).toBe(0);
    expect(value(m0, METRIC.enginePrefixCacheHits, ep)).toBe(0);
    expect(m0.types.get(METRIC.enginePrefixCacheHits)).toBe('counter');
    const cached: number[] = [];
    for (let i = 0; i < 3; i++) {
      const answer = t.call('POST', '/openai/v1/chat/completions', { model: 'm', messages: [{ role: 'user', content: 'y'.repeat(1000) }], max_tokens: 8 });
      for (let k = 0; k < 200 && (await t.call('GET', '/_sim/clock')).body.received < i + 1; k++) await new Promise((r) => setTimeout(r, 5));
      await t.advance(1000);
      const r = await answer;
      expect(r.body.usage).toMatchObject({ prompt_tokens: 250, completion_tokens: 8 });
      cached.push(r.body.usage.prompt_tokens_details.cached_tokens);
    }
    expect(cached).toEqual([0, 240, 240]);
    const m = await scrape();
    expect(value(m, METRIC.enginePrefixCacheQueries, ep)).toBe(750);
    expect(value(m, METRIC.enginePrefixCacheHits, ep)).toBe(480);
    expect(t.s.sim.endpoints.get('ep')!.engines).toMatchObject({ prefixQueries: 750, prefixHits: 480 });
  });
});
