/**
 * `loadlab calibrate FILE.json…` through the built CLI (one child process for every command
 * line): two vllm bench serve summaries fitted and written out, and each input calibrate cannot
 * use refused with exit 2, naming the file and the field.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { batched } from '../helpers/cli-batch.js';

const dir = mkdtempSync(join(tmpdir(), 'loadlab-calibrate-bench-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A closed-loop summary at concurrency c (the L4 / 0.5 B shape: 256 tokens in, 128 out). */
function summary(c: number, itl: number, ttft: number, e2el: number): Record<string, unknown> {
  return {
    model_id: 'm',
    request_rate: 'inf',
    max_concurrency: c,
    completed: 100,
    total_input_tokens: 25_600,
    total_output_tokens: 12_800,
    output_throughput: (128_000 * c) / e2el,
    median_ttft_ms: ttft,
    p99_ttft_ms: ttft * 1.5,
    median_itl_ms: itl,
    median_e2el_ms: e2el,
  };
}

function file(name: string, content: unknown): string {
  const f = join(dir, name);
  writeFileSync(f, typeof content === 'string' ? content : JSON.stringify(content));
  return f;
}

const c1 = file('c1.json', summary(1, 5.1, 27, 679));
const c8 = file('c8.json', summary(8, 5.5, 61, 772));
const { median_itl_ms: _, ...noItl } = summary(4, 5.3, 50, 722);
const missing = file('c4.json', noItl);
const noC = file('nc.json', { ...summary(2, 5.2, 38, 698), max_concurrency: null });
const broken = file('broken.json', '{"max_concurrency": 4,');
const runDir = join(dir, 'a-run');
mkdirSync(runDir);
const out = join(dir, 'out');

const LINES = [
  ['calibrate', c1, c8, '--out', out],
  ['calibrate', c1, missing, noC, broken, join(dir, 'nowhere.json')],
  ['calibrate', runDir, c1],
  ['calibrate', c1, '--scenario', join(dir, 'x.yaml')],
  ['calibrate', c1, c8, '--max-num-seqs', '0'],
  ['calibrate', '--help'],
  ['calibrate', c1, c8, '--scenario', 'scenarios/llm-sizing.yaml', '--out', join(dir, 'yours')],
];
const result = batched(() => LINES.map((args) => ({ args })));

describe('loadlab calibrate FILE.json…', () => {
  test('fits the files and writes calibrated.yaml, calibration.json, .md and .html', () => {
    const r = result(0);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain('2 vllm bench serve file(s), --max-concurrency 1, 8');
    expect(r.stdout).toContain(`next: loadlab run ${join(out, 'calibrated.yaml')}`);
    const c = JSON.parse(readFileSync(join(out, 'calibration.json'), 'utf8'));
    expect(c).toMatchObject({ kind: 'vllm-bench', endpoint: { workerConcurrency: 8, engine: { maxNumSeqs: 256, maxNumBatchedTokens: 2048 } } });
    expect(c.levels.map((l: { concurrency: number }) => l.concurrency)).toEqual([1, 8]);
    expect(readFileSync(join(out, 'calibrated.yaml'), 'utf8')).toMatch(/arrival: \{ process: closed, users: 8 \}/);
    expect(readFileSync(join(out, 'calibration.md'), 'utf8')).toContain('| decodeMs |');
    expect(readFileSync(join(out, 'calibration.html'), 'utf8')).toContain('id="chart-itlP50"');
  });

  test('every unusable file at once, each with its field: exit 2', () => {
    const r = result(1);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(`${missing}: median_itl_ms: missing (fits decodeMs and perSequenceMs (or median_tpot_ms))`);
    expect(r.stderr).toContain(`${noC}: max_concurrency: missing`);
    expect(r.stderr).toContain(`${broken}: (file): not JSON`);
    expect(r.stderr).toContain(`${join(dir, 'nowhere.json')}: (file): cannot read it (no such file)`);
    expect(r.stderr).not.toContain(c1);
  });

  test('a run directory with bench files, --scenario or a bad --max-num-seqs: exit 2 saying why', () => {
    expect([result(2).status, result(2).stderr]).toEqual([2, expect.stringContaining('a run directory is calibrated alone')]);
    expect([result(3).status, result(3).stderr]).toEqual([2, expect.stringContaining(`--scenario ${join(dir, 'x.yaml')}: cannot read it (no such file)`)]);
    expect([result(4).status, result(4).stderr]).toEqual([2, expect.stringContaining('--max-num-seqs 0: a whole number from 1 to 65536')]);
  });

  test('--scenario YOURS: calibrated.yaml is your scenario (traffic, SLOs, comments) with the fitted engine', () => {
    const r = result(6);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain(`next: loadlab plan ${join(dir, 'yours', 'calibrated.yaml')}`);
    const text = readFileSync(join(dir, 'yours', 'calibrated.yaml'), 'utf8');
    const fitted = JSON.parse(readFileSync(join(dir, 'yours', 'calibration.json'), 'utf8')).endpoint.engine;
    const mine = readFileSync('scenarios/llm-sizing.yaml', 'utf8');
    // Yours: the name, the traffic, the SLOs, the worker's concurrency and the header comments stay.
    for (const kept of ['name: llm-sizing', 'workerConcurrency: 32', 'ttft_p95_ms{flow=chat} < 300', '# llm-sizing: your chat traffic']) {
      expect(mine).toContain(kept);
      expect(text).toContain(kept);
    }
    const doc = parseYaml(text);
    expect(doc.endpoint.llm.engine).toEqual(fitted);
    expect(doc.endpoint.llm.outputTokens).toEqual(parseYaml(mine).endpoint.llm.outputTokens);
    expect(text).toContain('# Fitted by loadlab calibrate to vllm bench serve results: c1.json, c8.json');
  });

  test('--help names both inputs and the server settings', () => {
    const r = result(5);
    expect(r.stdout).toContain('vllm bench serve');
    expect(r.stdout).toContain('--max-num-batched-tokens');
  });
});
