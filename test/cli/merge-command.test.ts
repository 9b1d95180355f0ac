/** `loadlab merge DIR...`: the merged reports, the verdict and exit code of the merged run, exit 2 for inputs that are not shards of one run. */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { renderJson } from '../../src/report/render-json.js';
import type { RunResult } from '../../src/report/run-result.js';
import { CLIENT_METRIC } from '../../src/contract/metric-names.js';
import { lastValue, parseOpenMetrics } from '../report/openmetrics-check.js';
import { shardResult } from '../report/merge-shards.js';
import { cliBatch, type CliResult } from '../helpers/cli-batch.js';

const dir = mkdtempSync(join(tmpdir(), 'loadlab-merge-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const env = { ...process.env, CI: 'true', GITHUB_STEP_SUMMARY: '' };
const cli = (...args: string[]) => spawnSync('node', ['bin/loadlab.js', ...args], { encoding: 'utf8', env, timeout: 120_000 });
/** Command lines in order in one child process (test/helpers/cli-batch.ts). */
const batch = (...lines: string[][]): CliResult[] =>
  cliBatch(
    lines.map((args) => ({ args })),
    env,
  );

function writeShard(name: string, r: RunResult): string {
  const d = join(dir, name);
  mkdirSync(d, { recursive: true });
  writeFileSync(join(d, 'report.json'), renderJson(r));
  return d;
}

let shardDirs: string[];
let results: RunResult[];

beforeAll(async () => {
  // Each shard sends ~120 run requests: under the count threshold alone, over it together.
  results = await Promise.all([0, 1, 2].map((i) => shardResult(i, 3, { rate: 3, thresholds: ['requests{run} < 150', 'p99_ms < 60000'] })));
  shardDirs = results.map((r, i) => writeShard(`shard-${i}`, r));
});

describe('loadlab merge', () => {
  test('a threshold every shard passes fails on the merged run: exit 99, with the merged reports written', () => {
    const out = join(dir, 'merged');
    const again = join(dir, 'merged-again');
    // The same inputs in another order, in the same process: the same bytes.
    const [r, r2] = batch(['merge', ...shardDirs, '--out', out], ['merge', shardDirs[2]!, shardDirs[0]!, shardDirs[1]!, '--out', again]) as [
      CliResult,
      CliResult,
    ];
    expect(r.status, r.stderr).toBe(99);
    const total = results.reduce((n, x) => n + x.operations.run!.requests, 0);
    expect(r.stdout.split('\n')[0]).toBe(`FAIL: requests{run} < 150 (measured ${total})`);
    expect(r.stdout).toContain('loadlab merge merge-me: 3 inputs, shards 0, 1, 2 of 3');
    expect(r.stderr).toContain('threshold failed: requests{run} < 150');
    for (const f of ['report.json', 'report.md', 'report.html', 'metrics.om']) expect(existsSync(join(out, f)), f).toBe(true);
    const m = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as RunResult & { shard: unknown };
    expect(m.operations.run!.requests).toBe(total);
    expect(m.shard).toMatchObject({ count: 3, indices: [0, 1, 2] });
    // metrics.om is well-formed OpenMetrics and counts the merged requests.
    const om = parseOpenMetrics(readFileSync(join(out, 'metrics.om'), 'utf8'));
    expect(lastValue(om, `${CLIENT_METRIC.requests}_total`, { operation: 'run' })).toBe(total);
    // The same inputs in another order give the same bytes.
    expect(r2.status).toBe(99);
    for (const f of ['report.json', 'report.md', 'metrics.om']) expect(readFileSync(join(again, f), 'utf8')).toBe(readFileSync(join(out, f), 'utf8'));
    // `loadlab report` renders the merged report.json to the same files.
    const rendered = join(dir, 'merged-rendered');
    expect(cli('report', out, '--out', rendered).status).toBe(0);
    for (const f of ['report.md', 'report.html', 'metrics.om']) expect(readFileSync(join(rendered, f), 'utf8')).toBe(readFileSync(join(out, f), 'utf8'));
  }, 120_000);

  test("a partial merge of two shards; merging it with the last shard gives the full merge's report.json", () => {
    const part = join(dir, 'part');
    const one = join(dir, 'one');
    const full = join(dir, 'full');
    const [r, single, merged] = batch(
      ['merge', shardDirs[0]!, shardDirs[1]!, '--out', part],
      ['merge', shardDirs[0]!, '--out', one],
      ['merge', part, shardDirs[2]!, '--out', full],
    ) as [CliResult, CliResult, CliResult];
    expect(r.status, r.stderr).toBe(99);
    expect(single.status, single.stderr).toBe(0);
    expect(single.stdout).toContain('(2 missing: a partial run)');
    expect(merged.status).toBe(99);
    expect(readFileSync(join(full, 'report.json'), 'utf8')).toBe(readFileSync(join(dir, 'merged', 'report.json'), 'utf8'));
  }, 120_000);

  test('mismatched seed, a whole run, a missing directory: exit 2 naming the inputs and the field', () => {
    const other = writeShard('other-seed', { ...results[1]!, scenario: { ...results[1]!.scenario, seed: 8 } });
    const { shard: _, ...wholeRun } = results[2] as RunResult & { shard: unknown };
    const whole = writeShard('whole', wholeRun as RunResult);
    const [r, w, missing, none] = batch(
      ['merge', shardDirs[0]!, other, '--out', join(dir, 'x')],
      ['merge', shardDirs[0]!, whole],
      ['merge', join(dir, 'nope')],
      ['merge'],
    ) as [CliResult, CliResult, CliResult, CliResult];
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(`${shardDirs[0]} and ${other} differ in scenario.seed (7 vs 8)`);
    expect(w.status).toBe(2);
    expect(w.stderr).toContain(`${whole}: shard: missing: a whole run, not a shard of one`);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain(`${join(dir, 'nope')}: no such file or directory`);
    expect(existsSync(join(dir, 'x'))).toBe(false);
    expect(none.status).toBe(2);
    expect(none.stderr).toContain('Not enough non-option arguments');
  }, 120_000);

  test('a shard stopped by Ctrl-C makes the merged run INVALID: exit 1, not the 130 of an interrupted command', () => {
    const stopped = writeShard('stopped', { ...results[1]!, interrupted: { atMs: 12_000 } });
    const r = cli('merge', shardDirs[0]!, stopped, shardDirs[2]!, '--out', join(dir, 'stopped-merged'));
    expect(r.status, r.stderr).toBe(1);
    expect(r.stdout.split('\n')[0]).toMatch(/^INVALID: interrupted by the user at t=12 s/);
    expect(r.stderr).toContain('the merged run is INVALID: a shard was interrupted by the user at t=12 s');
  }, 120_000);

  test('--help names the command', () => {
    const r = cli('--help');
    expect(r.stdout).toMatch(/loadlab merge <dirs\.\.>/);
  });
});
