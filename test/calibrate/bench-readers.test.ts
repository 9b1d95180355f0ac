/**
 * GuideLLM and GenAI-Perf result files read as calibrate's runs (test/fixtures/bench: the L4 /
 * 0.5 B sweep of examples/vllm-bench-l4 as each tool writes it): each closed loop's concurrency,
 * its times in ms, its counts; open loops skipped or refused with why; every bad field named.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { runName } from '../../src/calibrate/bench/bench-file.js';
import { workloadOf } from '../../src/calibrate/bench/bench-workload.js';
import { benchSourceOf, parseBenchText } from '../../src/calibrate/bench/read-bench-files.js';

const GUIDELLM = 'test/fixtures/bench/guidellm/benchmarks.json';
const SWEEP = 'test/fixtures/bench/guidellm/sweep-v0.3.json';
const genaiPerf = (c: number) => `test/fixtures/bench/genai-perf/Qwen_Qwen2.5-0.5B-Instruct-openai-chat-concurrency${c}/profile_export_genai_perf.json`;
const text = (f: string) => readFileSync(f, 'utf8');
const json = (f: string) => JSON.parse(text(f));
const read = (f: string, content: unknown = json(f)) => parseBenchText(f, typeof content === 'string' ? content : JSON.stringify(content));
const runsOf = (f: string, content?: unknown) => {
  const p = read(f, content);
  if (!p.ok) throw new Error(JSON.stringify(p.issues));
  return p;
};

describe('a GuideLLM benchmarks.json', () => {
  test('its concurrent and synchronous benchmarks are runs at their streams, times in ms; the constant-rate one is skipped, said why', () => {
    const { runs, skipped } = runsOf(GUIDELLM);
    expect(runs.map((r) => [r.source, r.concurrency, runName(r)])).toEqual([
      ['guidellm', 1, `${GUIDELLM} benchmarks.0 (synchronous)`],
      ['guidellm', 4, `${GUIDELLM} benchmarks.1 (concurrent@4)`],
      ['guidellm', 16, `${GUIDELLM} benchmarks.2 (concurrent@16)`],
    ]);
    const c4 = runs[1]!;
    expect(c4).toMatchObject({
      modelId: 'Qwen/Qwen2.5-0.5B-Instruct',
      completed: 100,
      meanInputTokens: 256,
      meanOutputTokens: 128,
      outputThroughput: 698,
      durationS: 18.519,
    });
    // The medians of examples/vllm-bench-l4/c4.json, request_latency from seconds to ms.
    expect(c4.metrics.ttft.median).toBe(50.1);
    expect(c4.metrics.ttft.percentiles).toMatchObject({ '50': 50.1, '95': 85.4, '99.9': expect.any(Number) });
    expect(c4.metrics.itl.median).toBe(5.3);
    expect(c4.metrics.e2el.median).toBeCloseTo(722, 9);
    expect(c4.metrics.e2el.percentiles['95']).toBeCloseTo(760, 9);
    // GuideLLM's ITL is vLLM's TPOT; its own TPOT (first token's wait included: 722 / 128 = 5.64) is not read.
    expect(c4.metrics.tpot.median).toBe(5.3);
    // requests.successful (a sample of 5): their lengths and TTFT, no gaps.
    expect(c4.detail?.inputLens).toEqual([256, 256, 256, 256, 256]);
    expect(c4.detail?.ttftsMs[0]).toBeCloseTo(45.09, 9);
    expect(c4.detail?.itlsMs).toBeUndefined();
    expect(workloadOf(runs)).toEqual({ promptTokens: 256, outputTokens: 128, maxTokens: 128 });
    expect(skipped).toEqual([
      {
        file: GUIDELLM,
        field: 'benchmarks.3.config.strategy.type_',
        reason: expect.stringMatching(/^constant at 10 requests\/s: an open loop .*--profile concurrent/),
      },
    ]);
  });

  test('GuideLLM 0.3 (strategy in args, totals beside the metrics): a sweep gives its synchronous benchmark, C = 1; throughput, constant and poisson skipped', () => {
    const { runs, skipped } = runsOf(SWEEP);
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ concurrency: 1, completed: 44, modelId: 'Qwen/Qwen2.5-0.5B-Instruct', meanOutputTokens: 128 });
    expect(runs[0]!.metrics.ttft.median).toBe(27);
    expect(runs[0]!.metrics.e2el.median).toBeCloseTo(679, 9);
    // No requests kept: the summaries only.
    expect(runs[0]!.detail).toBeUndefined();
    expect(skipped.map((s) => [s.field, s.reason.split(':')[0]])).toEqual([
      ['benchmarks.1.args.strategy.type_', 'throughput'],
      ['benchmarks.2.args.strategy.type_', 'constant at 7.4 requests/s'],
      ['benchmarks.3.args.strategy.type_', 'poisson at 13.8 requests/s'],
    ]);
    expect(skipped[0]!.reason).toContain('sends every request at once');
  });

  test('only open loops: refused, each benchmark with why', () => {
    const f = json(SWEEP);
    f.benchmarks = f.benchmarks.slice(1);
    const p = read(SWEEP, f);
    expect(p.ok).toBe(false);
    if (p.ok) return;
    expect(p.issues.map((i) => i.field)).toEqual([
      'benchmarks.0.args.strategy.type_',
      'benchmarks.1.args.strategy.type_',
      'benchmarks.2.args.strategy.type_',
      'benchmarks',
    ]);
    expect(p.issues[3]!.reason).toContain('no concurrent or synchronous benchmark: nothing to fit');
  });

  test('a bad or missing field of a concurrent benchmark: the file refused, naming the benchmark and the field', () => {
    const f = json(GUIDELLM);
    f.benchmarks[1].metrics.time_to_first_token_ms.successful.median = 'fast';
    delete f.benchmarks[2].metrics.inter_token_latency_ms;
    f.benchmarks[0].config.strategy = { type_: 'concurrent' };
    const p = read(GUIDELLM, f);
    expect(p.ok).toBe(false);
    if (p.ok) return;
    expect(p.issues).toEqual([
      { file: GUIDELLM, field: 'benchmarks.0.config.strategy.streams', reason: 'missing (the concurrent streams: the users of the closed loop)' },
      { file: GUIDELLM, field: 'benchmarks.1.metrics.time_to_first_token_ms.successful.median', reason: '"fast": not a number >= 0' },
      {
        file: GUIDELLM,
        field: 'benchmarks.2.metrics.inter_token_latency_ms.successful.median',
        reason: 'missing (fits decodeMs and perSequenceMs: stream the answers)',
      },
    ]);
  });
});

describe('a GenAI-Perf profile_export_genai_perf.json', () => {
  test('newer (perf_analyzer.stimulus.concurrency) and older (input_config.concurrency): the concurrency, ms values, counts', () => {
    const c4 = runsOf(genaiPerf(4));
    expect(c4.skipped).toEqual([]);
    expect(c4.runs).toHaveLength(1);
    expect(c4.runs[0]).toMatchObject({
      file: genaiPerf(4),
      source: 'genai-perf',
      modelId: 'Qwen/Qwen2.5-0.5B-Instruct',
      concurrency: 4,
      completed: 100,
      meanInputTokens: 256,
      meanOutputTokens: 128,
      outputThroughput: 698,
    });
    const m = c4.runs[0]!.metrics;
    expect([m.ttft.median, m.itl.median, m.tpot.median, m.e2el.median]).toEqual([50.1, 5.3, 5.3, 722]);
    expect(m.ttft.percentiles).toMatchObject({ '1': expect.any(Number), '95': 85.4, '99': expect.any(Number) });
    const c1 = runsOf(genaiPerf(1)).runs[0]!;
    expect([c1.concurrency, c1.metrics.ttft.median, c1.metrics.itl.median, c1.completed]).toEqual([1, 27, 5.1, 100]);
  });

  test('times in another unit are made ms', () => {
    const f = json(genaiPerf(4));
    f.request_latency = { ...f.request_latency, unit: 's', p50: 0.722, avg: 0.73 };
    f.time_to_first_token = { ...f.time_to_first_token, unit: 'ns', p50: 50_100_000 };
    const m = runsOf(genaiPerf(4), f).runs[0]!.metrics;
    expect(m.e2el.median).toBeCloseTo(722, 9);
    expect(m.e2el.mean).toBeCloseTo(730, 9);
    expect(m.ttft.median).toBeCloseTo(50.1, 9);
    f.inter_token_latency.unit = 'tokens';
    expect(read(genaiPerf(4), f)).toMatchObject({
      ok: false,
      issues: [{ field: 'inter_token_latency.unit', reason: '"tokens": not a unit of time (ms, s, us, ns)' }],
    });
  });

  test('a request-rate run is an open loop: refused, newer and older', () => {
    const newer = json(genaiPerf(4));
    newer.input_config.perf_analyzer.stimulus = { request_rate: 8 };
    expect(read(genaiPerf(4), newer)).toMatchObject({
      ok: false,
      issues: [
        {
          field: 'input_config.perf_analyzer.stimulus.request_rate',
          reason: '8: an open-loop run; calibrate fits closed loops: genai-perf profile --concurrency C',
        },
      ],
    });
    const older = json(genaiPerf(1));
    older.input_config.request_rate = 2.5;
    expect(read(genaiPerf(1), older)).toMatchObject({
      ok: false,
      issues: [{ field: 'input_config.request_rate', reason: expect.stringContaining('open-loop') }],
    });
  });

  test('not streamed (no inter_token_latency) and no request_count: each named with what it is for', () => {
    const f = json(genaiPerf(4));
    delete f.inter_token_latency;
    delete f.request_count;
    const p = read(genaiPerf(4), f);
    expect(!p.ok && p.issues.map((i) => [i.field, i.reason])).toEqual([
      ['inter_token_latency.p50', 'missing (fits decodeMs and perSequenceMs: profile with --streaming)'],
      ['request_count.avg', 'missing (the count of completed requests, above 0)'],
    ]);
  });
});

describe('telling the files apart by their content', () => {
  test('each tool by its fields, whatever the file is named; anything else refused naming the three', () => {
    expect(benchSourceOf(json(GUIDELLM))).toBe('guidellm');
    expect(benchSourceOf(json(genaiPerf(16)))).toBe('genai-perf');
    expect(benchSourceOf(json('examples/vllm-bench-l4/c4.json'))).toBe('vllm');
    expect(runsOf('c4.json', text(genaiPerf(4))).runs[0]!.source).toBe('genai-perf');
    expect(runsOf('results.json', text('examples/vllm-bench-l4/c4.json')).runs[0]).toMatchObject({ source: 'vllm', concurrency: 4 });
    expect(read('x.json', { hello: 1 })).toMatchObject({
      ok: false,
      issues: [{ field: '(file)', reason: expect.stringContaining('GuideLLM (benchmarks.json)') }],
    });
    expect(read('x.yaml', 'benchmarks:\n  - {}\n')).toMatchObject({
      ok: false,
      issues: [{ field: '(file)', reason: expect.stringMatching(/^not JSON [\s\S]*: give the JSON result files$/) }],
    });
  });
});
