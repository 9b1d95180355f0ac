/**
 * Prefix caching seen by a user, through `runScenario` in process: a flow of streamed chats that
 * share a long prefix (a 256-token preamble, then a few characters of their own) against an engine
 * with `prefixCaching`. Each prompt is 257 tokens whose first 16 blocks (256 tokens) are the
 * shared preamble; the first request a worker sees finds nothing, each later one 256 tokens. So
 * with N requests on one worker the flow's hit rate is (N − 1) × 256 / (N × 257), and spread over
 * W workers (each its own cache) (N − W) × 256 / (N × 257).
 */
import { describe, expect, it } from 'vitest';
import { parseScenario } from '../../src/load/scenario/loader.js';
import { runScenario } from '../../src/load/run-scenario.js';
import { renderJson } from '../../src/report/render-json.js';
import type { RunResult } from '../../src/report/run-result.js';
import { CLIENT_METRIC, METRIC } from '../../src/contract/metric-names.js';
import { renderOpenMetrics } from '../../src/report/render-openmetrics.js';
import { chartSlots } from '../../src/report/html/series.js';
import { lastValue, parseOpenMetrics } from '../report/openmetrics-check.js';

/** 1024 characters: 256 tokens, 16 blocks. */
const PREAMBLE = 'You are a support assistant. Answer the ticket below briefly. '.repeat(17).slice(0, 1024);

function scenario(endpoint: Record<string, unknown>, prefixCaching = true) {
  const l = parseScenario(
    {
      name: 'prefix',
      seed: 5,
      durationMs: 5000,
      drainMs: 30_000,
      endpoint: {
        id: 'llm',
        coldStartMs: 1000,
        llm: { engine: { decodeMs: 10, perSequenceMs: 0.1, prefillMsPerToken: 0.05, prefixCaching }, outputTokens: 100 },
        ...endpoint,
      },
      traffic: [
        {
          name: 'chat',
          arrival: { process: 'constant', ratePerSec: 4 },
          // " #<n>": 3 or 4 characters, so each prompt is 1027 or 1028 characters: 257 tokens.
          client: { behaviour: 'openai-chat', stream: true, maxTokens: 100, prompt: `${PREAMBLE} #{{seq}}` },
        },
      ],
    },
    'prefix.yaml',
  );
  if (!l.ok) throw new Error(JSON.stringify(l.issues));
  return l.scenario;
}

const oneWorker = { workersMin: 1, workersMax: 1, workerConcurrency: 8 };
const fourWorkers = { workersMin: 4, workersMax: 4, workerConcurrency: 1 };

async function run(endpoint: Record<string, unknown>, prefixCaching = true): Promise<RunResult> {
  const r = await runScenario(scenario(endpoint, prefixCaching));
  delete r.wallClock;
  return r;
}

describe('prefix caching in a run', () => {
  it('N requests with one prefix on one worker: the flow hits (N − 1) / N of the shared share; the engine counts the same', async () => {
    const r = await run(oneWorker);
    const s = r.flows.chat!.stream!;
    const n = s.requests;
    expect(n).toBe(20);
    expect(s).toMatchObject({ promptTokens: n * 257, cachedPromptTokens: (n - 1) * 256 });
    expect(s.prefixCacheHitRate).toBeCloseTo(((n - 1) / n) * (256 / 257), 4);
    expect(r.engine).toMatchObject({ prefixCacheQueries: n * 257, prefixCacheHits: (n - 1) * 256, prefixCacheHitRate: s.prefixCacheHitRate });
    const w = r.windows!.endpoint!.engine!;
    expect(w.prefixCacheQueries!.reduce((a, b) => a + b, 0)).toBe(n * 257);
    expect(w.prefixCacheHits!.reduce((a, b) => a + b, 0)).toBe((n - 1) * 256);
  });

  it('the same traffic over four workers behind the queue: each has its own cache, the hit rate is lower', async () => {
    const one = (await run(oneWorker)).flows.chat!.stream!;
    const four = await run(fourWorkers);
    const s = four.flows.chat!.stream!;
    expect(s.requests).toBe(20);
    expect(s.cachedPromptTokens).toBe((20 - 4) * 256);
    expect(s.prefixCacheHitRate!).toBeLessThan(one.prefixCacheHitRate!);
    expect(four.engine!.prefixCacheHitRate).toBe(s.prefixCacheHitRate);
  });

  it('caching shortens the time to first token; without it nothing is told', async () => {
    const on = await run(oneWorker);
    const off = await run(oneWorker, false);
    expect(on.flows.chat!.stream!.ttftMs.summary.p50).toBeLessThan(off.flows.chat!.stream!.ttftMs.summary.p50);
    expect(off.flows.chat!.stream!.prefixCacheHitRate).toBeUndefined();
    expect(off.engine!.prefixCacheHitRate).toBeUndefined();
    expect(off.windows!.endpoint!.engine!.prefixCacheQueries).toBeUndefined();
  });

  it('metrics.om counts the queries and hits; report.html draws the hit rate', async () => {
    const r = await run(oneWorker);
    const fams = parseOpenMetrics(renderOpenMetrics(r, Date.UTC(2024, 4, 1)));
    const labels = { endpoint: 'llm', scenario: 'prefix' };
    expect(lastValue(fams, METRIC.enginePrefixCacheQueries, labels)).toBe(20 * 257);
    expect(lastValue(fams, METRIC.enginePrefixCacheHits, labels)).toBe(19 * 256);
    // Per flow: the prompt tokens sent and, of those, the cached ones the answers told.
    const flow = { flow: 'chat', scenario: 'prefix' };
    expect(lastValue(fams, `${CLIENT_METRIC.streamPromptTokens}_total`, flow)).toBe(20 * 257);
    expect(lastValue(fams, `${CLIENT_METRIC.streamCachedPromptTokens}_total`, flow)).toBe(19 * 256);
    const slot = chartSlots(r).find((c) => c.kind === 'chart' && c.spec.id === 'engine-prefix-cache');
    if (slot?.kind !== 'chart') throw new Error('no prefix cache chart');
    const rates = slot.spec.series[0]!.values.filter((v): v is number => v !== null);
    // All 20 requests join within the first 10 s window: one point, the run's rate.
    expect(rates).toEqual([94.6]);
    expect(slot.spec.subtitle).toContain('94.6 % over the run');
    const off = await run(oneWorker, false);
    expect(chartSlots(off).some((c) => c.kind === 'chart' && c.spec.id === 'engine-prefix-cache')).toBe(false);
    expect(renderOpenMetrics(off, 0)).not.toContain(METRIC.enginePrefixCacheQueries);
    expect(renderOpenMetrics(off, 0)).not.toContain(CLIENT_METRIC.streamCachedPromptTokens);
  });

  it('one seed, one report: two runs give byte-identical report.json', async () => {
    expect(renderJson(await run(fourWorkers))).toBe(renderJson(await run(fourWorkers)));
  });
});
