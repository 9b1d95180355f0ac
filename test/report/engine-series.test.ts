/**
 * An LLM endpoint's batching engines as a user reads them after a run: report.json's windows and
 * summary, metrics.om's vLLM-named families and report.html's two charts. One run with a KV cache
 * too small for 8 users of 1024-token prompts and answers of up to 512 tokens (512 blocks: all 8
 * prompts fit, their answers do not, so requests wait inside the worker and sequences are
 * preempted), the same run with an unlimited cache (a request waits only for the next iteration),
 * and a run without an engine (nothing added).
 */
import { beforeAll, describe, expect, test } from 'vitest';
import { runScenario } from '../../src/load/run-scenario.js';
import { parseScenario } from '../../src/load/scenario/loader.js';
import type { Scenario } from '../../src/load/scenario/schema.js';
import { inProcessTarget } from '../../src/load/targets/in-process/for-scenario.js';
import { METRIC } from '../../src/contract/metric-names.js';
import { renderOpenMetrics } from '../../src/report/render-openmetrics.js';
import { renderHtml } from '../../src/report/render-html.js';
import { chartSlots } from '../../src/report/html/series.js';
import type { RunResult } from '../../src/report/run-result.js';
import { lastValue, parseOpenMetrics, samples } from './openmetrics-check.js';

const ENGINE = { decodeMs: 10, perSequenceMs: 0.2, prefillMsPerToken: 0.02, maxNumSeqs: 8 };

function scenario(engine: Record<string, unknown>): Scenario {
  const l = parseScenario(
    {
      name: 'engine',
      seed: 1,
      durationMs: 60_000,
      endpoint: {
        id: 'llm',
        workersMin: 1,
        workersMax: 1,
        workerConcurrency: 8,
        llm: { engine: { ...ENGINE, ...engine }, outputTokens: { dist: 'uniform', minMs: 128, maxMs: 512 } },
      },
      traffic: [
        {
          name: 'chat',
          arrival: { process: 'closed', users: 8, thinkTimeMs: 0 },
          client: { behaviour: 'openai-chat', stream: true, maxTokens: 512, prompt: 'x'.repeat(4096) },
        },
      ],
    },
    'engine.yaml',
  );
  if (!l.ok) throw new Error(JSON.stringify(l.issues));
  return l.scenario;
}

/** A run, and the preemptions its endpoint's engines counted. */
async function run(engine: Record<string, unknown>): Promise<{ r: RunResult; preemptions: number }> {
  let preemptions = () => 0;
  const r = await runScenario(scenario(engine), {
    target: (s, seed) => {
      const t = inProcessTarget(s, seed);
      preemptions = () => t.sim.endpoints.get('llm')!.engines.preemptions;
      return t;
    },
  });
  return { r, preemptions: preemptions() };
}

let small: { r: RunResult; preemptions: number };
let unlimited: RunResult;
beforeAll(async () => {
  small = await run({ kvCacheTokens: 8192 });
  unlimited = (await run({})).r;
});

describe('report.json', () => {
  test('a small KV cache: requests wait inside the worker, the cache runs full, sequences are preempted', () => {
    const { r } = small;
    const e = r.windows!.endpoint!.engine!;
    const n = r.windows!.endpoint!.queueLength.length;
    for (const col of [e.running, e.waiting, e.kvCacheUsage!, e.kvCacheUsageMax!, e.preemptions]) expect(col).toHaveLength(n);
    // Under load: the 60 s of traffic (the last window is the drain).
    for (const u of e.kvCacheUsage!.slice(0, 6)) expect(u).toBeGreaterThan(0.85);
    for (const m of e.kvCacheUsageMax!) expect(m).toBeLessThanOrEqual(1);
    expect(Math.max(...e.kvCacheUsageMax!)).toBeGreaterThan(0.95);
    for (const w of e.waiting.slice(0, 6)) expect(w).toBeGreaterThan(1);
    for (const p of e.preemptions.slice(0, 6)) expect(p).toBeGreaterThan(0);
    // At most 8 requests in the worker, all of them running or waiting.
    for (let i = 0; i < n; i++) expect(e.running[i]! + e.waiting[i]!).toBeLessThanOrEqual(8.001);
    const s = r.engine!;
    expect(s.preemptions).toBeGreaterThan(0);
    expect(s.preemptions).toBe(e.preemptions.reduce((a, b) => a + b, 0));
    expect(s.preemptions).toBe(small.preemptions);
    expect(s.waitingMean).toBeGreaterThan(1);
    expect(s.kvCacheUsagePeak).toBe(Math.max(...e.kvCacheUsageMax!));
    expect(s.kvCacheUsageMean).toBeGreaterThan(0.5);
    // Little's law: waiting over all requests at the endpoint (no queue here: 8 users, 8 slots).
    expect(s.waitingShareOfRequestTime).toBeGreaterThan(0.1);
    expect(s.waitingShareOfRequestTime).toBeCloseTo(s.waitingMean / (s.waitingMean + s.runningMean), 2);
  });

  test('an unlimited cache with workerConcurrency <= maxNumSeqs: a request waits only for the next iteration; no cache usage', () => {
    const e = unlimited.windows!.endpoint!.engine!;
    // A request that arrives during an iteration joins at its end (vLLM's scheduler step): a few ms of its seconds.
    for (const w of e.waiting) expect(w).toBeLessThan(0.05);
    expect(e.running.slice(0, 6).every((x) => x > 7.9)).toBe(true);
    expect(e).not.toHaveProperty('kvCacheUsage');
    expect(e).not.toHaveProperty('kvCacheUsageMax');
    expect(unlimited.engine).toMatchObject({ preemptions: 0 });
    expect(unlimited.engine!.waitingShareOfRequestTime).toBeLessThan(0.01);
    expect(unlimited.engine!.waitingShareOfRequestTime).toBeLessThan(small.r.engine!.waitingShareOfRequestTime! / 20);
    expect(unlimited.engine).not.toHaveProperty('kvCacheUsagePeak');
  });

  test('a run without an engine has neither', async () => {
    const l = parseScenario(
      {
        name: 'plain',
        durationMs: 10_000,
        endpoint: { id: 'ep', jobDurationMs: 500 },
        traffic: [{ name: 'a', arrival: { process: 'constant', ratePerSec: 2 }, client: { behaviour: 'runsync' } }],
      },
      'plain.yaml',
    );
    if (!l.ok) throw new Error(JSON.stringify(l.issues));
    const r = await runScenario(l.scenario);
    expect(r.windows!.endpoint).not.toHaveProperty('engine');
    expect(r).not.toHaveProperty('engine');
    expect(renderOpenMetrics(r, 0)).not.toContain('loadlab_engine_');
    expect(renderHtml(r)).not.toContain('engine-requests');
  });
});

describe('metrics.om', () => {
  test("vLLM's gauges and preemption counter, labelled by endpoint, per window", () => {
    const { r } = small;
    const fams = parseOpenMetrics(renderOpenMetrics(r, Date.UTC(2024, 4, 1)));
    const labels = { endpoint: 'llm', scenario: 'engine' };
    const e = r.windows!.endpoint!.engine!;
    expect(samples(fams, METRIC.engineRunning, labels).map((s) => s.value)).toEqual(e.running);
    expect(samples(fams, METRIC.engineWaiting, labels).map((s) => s.value)).toEqual(e.waiting);
    expect(samples(fams, METRIC.engineKvCacheUsage, labels).map((s) => s.value)).toEqual(e.kvCacheUsage);
    expect(lastValue(fams, METRIC.enginePreemptions, labels)).toBe(r.engine!.preemptions);
    expect(samples(fams, METRIC.enginePreemptions, labels)[0]!.value).toBe(0);
  });

  test('no cache usage family without a modelled cache', () => {
    const text = renderOpenMetrics(unlimited, 0);
    expect(text).toContain(METRIC.engineWaiting);
    expect(text).not.toContain(METRIC.engineKvCacheUsage);
  });
});

describe('report.html', () => {
  const spec = (r: RunResult, id: string) => {
    const s = chartSlots(r).find((c) => (c.kind === 'chart' ? c.spec.id : c.id) === id);
    if (s?.kind !== 'chart') throw new Error(`no chart ${id}`);
    return s.spec;
  };

  test('running vs waiting, and KV cache usage with preemptions, drawn with data', () => {
    const { r } = small;
    const html = renderHtml(r);
    expect(html).toContain('id="chart-engine-requests"');
    expect(html).toContain('id="chart-engine-kv-cache"');
    const req = spec(r, 'engine-requests');
    expect(req.series.map((s) => s.label)).toEqual(['running', 'waiting']);
    expect(Math.max(...(req.series[1]!.values as number[]))).toBeGreaterThan(1);
    const kv = spec(r, 'engine-kv-cache');
    expect(Math.max(...(kv.series[0]!.values as number[]))).toBeGreaterThan(80);
    const pre = kv.series.find((s) => s.label === 'preemptions')!;
    expect((pre.values as number[]).reduce((a, b) => a + b, 0)).toBe(r.engine!.preemptions);
  });

  test('without a modelled cache: the requests chart, and a note for the cache', () => {
    const html = renderHtml(unlimited);
    expect(html).toContain('id="chart-engine-requests"');
    expect(html).not.toContain('id="chart-engine-kv-cache"');
    expect(html).toContain('id="note-engine-kv-cache"');
  });
});
