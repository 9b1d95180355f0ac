/**
 * `loadlab run` refuses what would hang, exhaust memory or misuse a flag — before anything runs,
 * with exit 2 and a message naming the file or flag: bad numeric flags, a looped trace spanning
 * 0 ms, a run too large for --max-requests, an oversized trace file (read only up to its limit).
 */
import { spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, ftruncateSync, writeFileSync, writeSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { batched, cliBatch } from '../helpers/cli-batch.js';

const dir = mkdtempSync(join(tmpdir(), 'loadlab-guards-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
/** Prints the child's peak RSS (KiB) on stderr at exit. */
const PEAK_RSS = 'data:text/javascript,process.on("exit",()=>process.stderr.write(`peak-rss-kib ${process.resourceUsage().maxRSS}\\n`))';
const cli = (args: string[], nodeArgs: string[] = []) =>
  spawnSync('node', [...nodeArgs, 'bin/loadlab.js', ...args], { encoding: 'utf8', env: { ...process.env, CI: 'true' }, timeout: 60_000 });

function scenario(name: string, extra: Record<string, unknown>): string {
  const f = join(dir, `${name}.json`);
  writeFileSync(
    f,
    JSON.stringify({
      name,
      durationMs: 10_000,
      traffic: [{ name: 'h', arrival: { process: 'constant', ratePerSec: 1 }, client: { behaviour: 'health' } }],
      ...extra,
    }),
  );
  return f;
}

describe('numeric flags', () => {
  const CASES: [string[], RegExp][] = [
    [['--seed', 'abc'], /--seed: an integer/],
    [['--seed', '1.5'], /--seed: an integer, got 1.5/],
    [['--max-requests', 'lots'], /--max-requests: a whole number/],
    [['--max-requests', '0'], /--max-requests: a whole number of requests >= 1, got 0/],
    [['--connections', 'x', '--target', 'http://127.0.0.1:1/v2'], /--connections: an integer from 1 to 10000/],
    [['--target', 'not a url'], /--target: not a URL/],
  ];
  // All in one child process (test/helpers/cli-batch.ts).
  const result = batched(() => {
    const f = scenario('flags', {});
    return CASES.map(([args]) => ({ args: ['run', f, ...args] }));
  });
  test.each(CASES.map(([args, msg], i) => [args, msg, i] as const))('run %j: exit 2 with a usage message, no stack trace', (_args, msg, i) => {
    const r = result(i);
    expect(r.status, r.stderr).toBe(2);
    expect(r.stderr).toMatch(msg);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });
});

describe('runs that would never end or fill memory', () => {
  test('a looped replay trace spanning 0 ms: exit 2 naming the field (inline and from a file)', () => {
    const inline = scenario('zero-span', {
      traffic: [{ name: 'r', arrival: { process: 'replay', timestampsMs: [5, 5], loop: true }, client: { behaviour: 'health' } }],
    });
    writeFileSync(join(dir, 'same.csv'), 'atMs\n7\n7\n7\n');
    const fromFile = scenario('zero-span-file', {
      traffic: [{ name: 'r', arrival: { process: 'replay', file: 'same.csv', loop: true }, client: { behaviour: 'health' } }],
    });
    // Not looped, the same trace is fine: two arrivals.
    const once = scenario('same-once', { traffic: [{ name: 'r', arrival: { process: 'replay', file: 'same.csv' }, client: { behaviour: 'health' } }] });
    const [r, r2, r3] = cliBatch([{ args: ['run', inline] }, { args: ['run', fromFile] }, { args: ['run', once, '--out', join(dir, 'once')] }]);
    expect(r!.status).toBe(2);
    expect(r!.stderr).toContain(`${inline}: traffic.0.arrival.loop: a looped trace must span more than 0 ms`);
    expect(r2!.status).toBe(2);
    expect(r2!.stderr).toMatch(/traffic\.0\.arrival\.loop: same\.csv: a looped trace must span more than 0 ms/);
    expect(r3!.status).toBe(0);
  });

  test('durationMs and drainMs are at most 30 days each', () => {
    const f = scenario('long-drain', { durationMs: 31 * 86_400_000, drainMs: 1e15 });
    const r = cli(['run', f]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/long-drain\.json: durationMs: .*2592000000/);
    expect(r.stderr).toMatch(/long-drain\.json: drainMs: .*2592000000/);
  });

  test('1 000 000 requests/s for 30 days: exit 2 at once with the estimate; --max-requests raises the bound', () => {
    const f = scenario('huge', {
      durationMs: 30 * 86_400_000,
      traffic: [{ name: 'h', arrival: { process: 'constant', ratePerSec: 1_000_000 }, client: { behaviour: 'health' } }],
    });
    const r = cli(['run', f], [`--import=${PEAK_RSS}`]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/huge\.json: this run would send about 2\.59e\+12 requests \(60 days of wall time .*\), more than --max-requests 2000000000/);
    expect(peakRssMiB(r.stderr)).toBeLessThan(300);
    const small = scenario('small', {});
    const [r2, r3] = cliBatch([{ args: ['run', small, '--max-requests', '5'] }, { args: ['run', small, '--max-requests', '10', '--out', join(dir, 'small')] }]);
    expect(r2!.status).toBe(2);
    expect(r2!.stderr).toMatch(/about 1\.00e\+1 requests .* more than --max-requests 5/);
    expect(r3!.status).toBe(0);
  });

  test('a CSV trace over the line limit: exit 2 naming the file, read only up to the limit', () => {
    // 10 000 002 lines of "1" (the limit is a header and 10 000 000 timestamps), then ~3.8 GB of
    // holes: a reader of the whole file would need far more memory (or fail on its size).
    const csv = join(dir, 'long.csv');
    const fd = openSync(csv, 'w');
    const block = Buffer.from('1\n'.repeat(1_000_000));
    for (let i = 0; i < 10; i++) writeSync(fd, block);
    writeSync(fd, Buffer.from('1\n1\n'));
    ftruncateSync(fd, Math.round(3.8 * 1024 ** 3));
    closeSync(fd);
    const f = scenario('long-trace', { traffic: [{ name: 'r', arrival: { process: 'replay', file: 'long.csv' }, client: { behaviour: 'health' } }] });
    const r = cli(['run', f], [`--import=${PEAK_RSS}`]);
    expect(r.status, r.stderr).toBe(2);
    expect(r.stderr).toContain(`${f}: traffic.0.arrival.file: ${csv}: more than 10000000 timestamps (reading stopped at line 10000001)`);
    expect(peakRssMiB(r.stderr)).toBeLessThan(1024);
  });

  test('a CSV trace that is one endless line: exit 2 after the first chunk', () => {
    const csv = join(dir, 'endless.csv');
    const fd = openSync(csv, 'w');
    ftruncateSync(fd, 2 * 1024 ** 3);
    closeSync(fd);
    const f = scenario('endless', { traffic: [{ name: 'r', arrival: { process: 'replay', file: 'endless.csv' }, client: { behaviour: 'health' } }] });
    const r = cli(['run', f], [`--import=${PEAK_RSS}`]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/endless\.csv: line 1 is longer than 4096 characters/);
    expect(peakRssMiB(r.stderr)).toBeLessThan(300);
  });
});

function peakRssMiB(stderr: string): number {
  const m = /peak-rss-kib (\d+)/.exec(stderr);
  if (!m) throw new Error(`no peak RSS in: ${stderr}`);
  return Number(m[1]) / 1024;
}
