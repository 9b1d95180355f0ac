/** A vllm bench serve result file read: the fields calibrate uses, and each problem named by file and field. */
import { describe, expect, test } from 'vitest';
import { levelOf } from '../../src/calibrate/bench/bench-level.js';
import { parseBenchFile } from '../../src/calibrate/bench/bench-file.js';
import { workloadOf } from '../../src/calibrate/bench/bench-workload.js';

/** The summary of a closed-loop run at C = 4 (ms), as --save-result writes it. */
const SUMMARY = {
  date: '20260101-120000',
  backend: 'vllm',
  model_id: 'Qwen/Qwen2.5-0.5B-Instruct',
  num_prompts: 200,
  request_rate: 'inf',
  burstiness: 1.0,
  max_concurrency: 4,
  duration: 37.1,
  completed: 200,
  failed: 0,
  total_input_tokens: 51_200,
  total_output_tokens: 25_600,
  request_throughput: 5.4,
  output_throughput: 698,
  mean_ttft_ms: 52,
  median_ttft_ms: 50.1,
  std_ttft_ms: 9,
  p99_ttft_ms: 90,
  'p99.9_ttft_ms': 120,
  median_tpot_ms: 5.3,
  median_itl_ms: 5.3,
  median_e2el_ms: 722,
};

const parse = (o: unknown) => parseBenchFile('c4.json', typeof o === 'string' ? o : JSON.stringify(o));
const without = (...keys: string[]) => Object.fromEntries(Object.entries(SUMMARY).filter(([k]) => !keys.includes(k)));

describe('a vllm bench serve result file', () => {
  test('summaries: settings, totals and each metric with its percentiles; unknown fields ignored', () => {
    const p = parse({ ...SUMMARY, a_field_of_a_newer_vllm: [1, 2], metadata: { gpu: 'l4' } });
    if (!p.ok) throw new Error(JSON.stringify(p.issues));
    expect(p.run).toMatchObject({
      file: 'c4.json',
      modelId: 'Qwen/Qwen2.5-0.5B-Instruct',
      concurrency: 4,
      completed: 200,
      meanInputTokens: 256,
      meanOutputTokens: 128,
      outputThroughput: 698,
    });
    expect(p.run.metrics.ttft).toEqual({ mean: 52, median: 50.1, std: 9, percentiles: { '99': 90, '99.9': 120 } });
    expect(p.run.metrics.e2el).toEqual({ median: 722, percentiles: {} });
    expect(p.run.detail).toBeUndefined();
    expect(workloadOf([p.run])).toEqual({ promptTokens: 256, outputTokens: 128, maxTokens: 128 });
  });

  test('what the fit needs, missing: every field named with what it is for', () => {
    const p = parse(without('median_itl_ms', 'median_tpot_ms', 'max_concurrency', 'total_output_tokens'));
    expect(p.ok).toBe(false);
    if (p.ok) return;
    expect(p.issues.map((i) => [i.file, i.field])).toEqual([
      ['c4.json', 'max_concurrency'],
      ['c4.json', 'median_itl_ms'],
      ['c4.json', 'total_output_tokens'],
    ]);
    expect(p.issues[1]!.reason).toBe('missing (fits decodeMs and perSequenceMs (or median_tpot_ms))');
    // TPOT alone is enough: the token gap is then fitted to it.
    const tpotOnly = parse(without('median_itl_ms'));
    expect(tpotOnly.ok && levelOf(tpotOnly.run).gap).toBe('tpotP50');
    // vLLM writes null when --max-concurrency was not given.
    const unset = parse({ ...SUMMARY, max_concurrency: null });
    expect(!unset.ok && unset.issues[0]).toMatchObject({ field: 'max_concurrency', reason: expect.stringContaining('--max-concurrency') });
  });

  test('not JSON, not an object, a wrong type, an open-loop rate', () => {
    expect(parse('{"max_concurrency": 4,')).toMatchObject({ ok: false, issues: [{ field: '(file)', reason: expect.stringMatching(/^not JSON/) }] });
    expect(parse([1, 2])).toMatchObject({ ok: false, issues: [{ field: '(file)', reason: expect.stringContaining('not a JSON object') }] });
    expect(parse({ ...SUMMARY, median_ttft_ms: 'fast' })).toMatchObject({
      ok: false,
      issues: [{ field: 'median_ttft_ms', reason: '"fast": not a number of ms >= 0' }],
    });
    expect(parse({ ...SUMMARY, max_concurrency: 2.5 })).toMatchObject({ ok: false, issues: [{ field: 'max_concurrency' }] });
    expect(parse({ ...SUMMARY, request_rate: 10 })).toMatchObject({
      ok: false,
      issues: [{ field: 'request_rate', reason: expect.stringContaining('open-loop') }],
    });
  });

  test('--save-detailed: the successful requests, times in ms; arrays of other lengths refused', () => {
    const detailed = {
      ...without('total_input_tokens', 'total_output_tokens', 'completed'),
      input_lens: [100, 300, 200],
      output_lens: [10, 0, 30],
      ttfts: [0.02, 0, 0.03],
      itls: [[0.005, 0.006], [], [0.005]],
      errors: ['', 'Bad Request', ''],
    };
    const p = parse(detailed);
    if (!p.ok) throw new Error(JSON.stringify(p.issues));
    expect(p.run.detail).toEqual({ inputLens: [100, 200], outputLens: [10, 30], ttftsMs: [20, 30], itlsMs: [[5, 6], [5]] });
    expect(p.run).toMatchObject({ completed: 2, meanInputTokens: 150, meanOutputTokens: 20 });
    expect(workloadOf([p.run])).toEqual({
      promptTokens: { dist: 'empirical', samplesMs: [100, 200] },
      outputTokens: { dist: 'empirical', samplesMs: [10, 30] },
      maxTokens: 30,
    });
    const short = parse({ ...SUMMARY, ...detailed, ttfts: [0.02] });
    expect(!short.ok && short.issues).toEqual([{ file: 'c4.json', field: 'ttfts', reason: '1 entries, input_lens has 3' }]);
  });
});
