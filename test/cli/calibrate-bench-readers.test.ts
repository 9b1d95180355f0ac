/**
 * `loadlab calibrate` on GuideLLM and GenAI-Perf result files through the built CLI (one child
 * process for every command line): the L4 / 0.5 B sweep of test/fixtures/bench as each tool
 * writes it is fitted end to end, the open-loop runs skipped or refused with exit 2 saying why.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { batched } from '../helpers/cli-batch.js';

const dir = mkdtempSync(join(tmpdir(), 'loadlab-calibrate-readers-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const GUIDELLM = 'test/fixtures/bench/guidellm/benchmarks.json';
const genaiPerf = (c: number) => `test/fixtures/bench/genai-perf/Qwen_Qwen2.5-0.5B-Instruct-openai-chat-concurrency${c}/profile_export_genai_perf.json`;

/** A GuideLLM sweep without its synchronous benchmark: rates only. */
const sweep = JSON.parse(readFileSync('test/fixtures/bench/guidellm/sweep-v0.3.json', 'utf8'));
sweep.benchmarks = sweep.benchmarks.slice(1);
const openGuidellm = join(dir, 'rates.json');
writeFileSync(openGuidellm, JSON.stringify(sweep));
/** A GenAI-Perf run at a request rate. */
const rated = JSON.parse(readFileSync(genaiPerf(4), 'utf8'));
rated.input_config.perf_analyzer.stimulus = { request_rate: 8 };
const openGenaiPerf = join(dir, 'profile_export_genai_perf.json');
writeFileSync(openGenaiPerf, JSON.stringify(rated));

const LINES = [
  ['calibrate', GUIDELLM, '--out', join(dir, 'guidellm')],
  ['calibrate', genaiPerf(1), genaiPerf(4), genaiPerf(16), '--out', join(dir, 'genai-perf')],
  ['calibrate', openGuidellm, openGenaiPerf, genaiPerf(1)],
  ['calibrate', '--help'],
];
const result = batched(() => LINES.map((args) => ({ args })));

const calibration = (sub: string) => JSON.parse(readFileSync(join(dir, sub, 'calibration.json'), 'utf8'));

describe('loadlab calibrate on GuideLLM and GenAI-Perf files', () => {
  test('GuideLLM benchmarks.json: its synchronous and concurrent benchmarks fitted (C = 1, 4, 16), the constant-rate one skipped and said so', () => {
    const r = result(0);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain('loadlab calibrate: 3 GuideLLM benchmark(s) in 1 file(s), concurrency 1, 4, 16');
    expect(r.stdout).toContain(`skipped: ${GUIDELLM}: benchmarks.3.config.strategy.type_: constant at 10 requests/s: an open loop`);
    const c = calibration('guidellm');
    expect(c.levels.map((l: { file: string; concurrency: number }) => [l.file, l.concurrency])).toEqual([
      [`${GUIDELLM} benchmarks.0 (synchronous)`, 1],
      [`${GUIDELLM} benchmarks.1 (concurrent@4)`, 4],
      [`${GUIDELLM} benchmarks.2 (concurrent@16)`, 16],
    ]);
    // The measured figures in ms (E2E from GuideLLM's seconds), and a fit that predicts them.
    expect(c.levels[1].figures.e2elP50.measured).toBe(722);
    expect(c.levels[1].figures.itlP50.measured).toBe(5.3);
    expect(c.endpoint).toMatchObject({ workerConcurrency: 16, promptTokens: 256, outputTokens: 128 });
    expect(c.endpoint.engine.decodeMs).toBeGreaterThan(4);
    expect(c.endpoint.engine.decodeMs).toBeLessThan(6);
    for (const l of c.levels) expect(Math.abs(l.figures.itlP50.error), `C = ${l.concurrency}`).toBeLessThan(0.1);
    expect(readFileSync(join(dir, 'guidellm', 'calibrated.yaml'), 'utf8')).toContain('Calibrated by loadlab calibrate from GuideLLM results: benchmarks.json.');
    expect(readFileSync(join(dir, 'guidellm', 'calibration.md'), 'utf8')).toContain(
      '# loadlab calibrate: GuideLLM results\n\n3 run(s) of Qwen/Qwen2.5-0.5B-Instruct, at concurrency 1, 4, 16.',
    );
    // The first result runs every command line of the batch (three fits): 10 s alone, up to a minute beside the rest of the suite.
  }, 180_000);

  test('GenAI-Perf profile_export_genai_perf.json files (older and newer input_config): fitted at their concurrency', () => {
    const r = result(1);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain('loadlab calibrate: 3 GenAI-Perf file(s), concurrency 1, 4, 16');
    expect(r.stdout).not.toContain('skipped');
    const c = calibration('genai-perf');
    expect(c.levels.map((l: { concurrency: number }) => l.concurrency)).toEqual([1, 4, 16]);
    expect(c.levels[0]).toMatchObject({ file: genaiPerf(1), model: 'Qwen/Qwen2.5-0.5B-Instruct', completed: 100 });
    expect(c.levels[2].figures.ttftP50.measured).toBe(103.8);
    expect(c.sources).toEqual(['genai-perf']);
    for (const l of c.levels) expect(Math.abs(l.figures.itlP50.error), `C = ${l.concurrency}`).toBeLessThan(0.1);
  });

  test('open loops only: exit 2, each file and field named with why', () => {
    const r = result(2);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(`${openGuidellm}: benchmarks.0.args.strategy.type_: throughput: sends every request at once`);
    expect(r.stderr).toContain(`${openGuidellm}: benchmarks: no concurrent or synchronous benchmark: nothing to fit`);
    expect(r.stderr).toContain(`${openGenaiPerf}: input_config.perf_analyzer.stimulus.request_rate: 8: an open-loop run`);
    expect(r.stderr).not.toContain(genaiPerf(1));
  });

  test('--help names the three tools and which of their runs are used', () => {
    const out = result(3).stdout;
    for (const s of ['vllm bench serve', 'GuideLLM benchmarks.json', 'GenAI-Perf profile_export_genai_perf.json', 'synchronous']) expect(out).toContain(s);
  });
});
