/** `loadlab run` writes metrics.om: --start-time chooses the instant (same bytes each time), the default ends the run now, bad values exit 2. */
import { spawnSync } from 'node:child_process';
import { cliBatch } from '../helpers/cli-batch.js';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { parseOpenMetrics } from '../report/openmetrics-check.js';
import type { CliError } from '../../src/cli/exit-codes.js';
import { parseStartTime } from '../../src/cli/start-time.js';

const dir = mkdtempSync(join(tmpdir(), 'loadlab-om-'));
const cli = (...args: string[]) => spawnSync('node', ['bin/loadlab.js', ...args], { encoding: 'utf8', env: { ...process.env, CI: 'true' }, timeout: 60_000 });
const file = join(dir, 'om.json');
writeFileSync(
  file,
  JSON.stringify({
    name: 'om-cli',
    durationMs: 30_000,
    drainMs: 30_000,
    endpoint: { workersMax: 2, jobDurationMs: { dist: 'exponential', meanMs: 800 } },
    traffic: [
      {
        name: 'p',
        arrival: { process: 'poisson', ratePerSec: 2 },
        client: { behaviour: 'run-poll', poll: { baseMs: 300, factor: 1.5, maxMs: 2000, jitter: 0.3 } },
      },
    ],
  }),
);
const read = (out: string, f: string) => readFileSync(join(dir, out, f), 'utf8');
const lastMs = (om: string) => Math.max(...parseOpenMetrics(om).flatMap((f) => f.samples.map((s) => s.ms)));

describe('loadlab run: metrics.om', () => {
  test('with --start-time, two runs give byte-identical metrics.om (and report.json but wallClock); ISO and epoch ms name the same instant', () => {
    for (const [out, start] of [
      ['a', '2024-05-01T12:00:00Z'],
      ['b', '2024-05-01T14:00:00+02:00'],
      ['c', '1714564800000'],
    ] as const) {
      const r = cli('run', file, '--out', join(dir, out), '--start-time', start);
      expect(r.status, r.stderr).toBe(0);
      expect(r.stdout).toContain(`metrics: ${join(dir, out, 'metrics.om')} (2024-05-01T12:00:00.000Z to `);
    }
    expect(read('a', 'metrics.om')).toBe(read('b', 'metrics.om'));
    expect(read('a', 'metrics.om')).toBe(read('c', 'metrics.om'));
    const rep = (o: string) => read(o, 'report.json').replace(/\n {2}"wallClock": \{[^}]*\}/, '');
    expect(rep('a')).toBe(rep('b'));
    const om = read('a', 'metrics.om');
    expect(om).toMatch(/^loadlab_client_requests_total\{endpoint="ep",scenario="om-cli",operation="run"\} 0 1714564800\.000$/m);
    expect(lastMs(om)).toBe(1714564800000 + JSON.parse(read('a', 'report.json')).elapsedMs);
  });

  test('without --start-time the run ends at the wall-clock second it finished', () => {
    const before = Date.now();
    const r = cli('run', file, '--out', join(dir, 'now'));
    const after = Date.now();
    expect(r.status, r.stderr).toBe(0);
    const last = lastMs(read('now', 'metrics.om'));
    expect(last).toBeGreaterThan(before - 1000);
    expect(last).toBeLessThanOrEqual(after);
  });

  test('a bad --start-time exits 2 naming the flag, before running anything', () => {
    const bads = ['yesterday', '2024-05-01T12:00:00'];
    const outs = bads.map(() => join(dir, `bad${Math.random().toString(36).slice(2)}`));
    // In one child process (test/helpers/cli-batch.ts).
    const rs = cliBatch(bads.map((bad, i) => ({ args: ['run', file, '--out', outs[i]!, `--start-time=${bad}`] })));
    for (const [i, bad] of bads.entries()) {
      const out = outs[i]!;
      const r = rs[i]!;
      expect(r.status, bad).toBe(2);
      expect(r.stderr, bad).toMatch(/^loadlab: --start-time: .*; give an ISO-8601 instant with a zone \(e\.g\. 2024-05-01T12:00:00Z\) or epoch milliseconds/);
      expect(existsSync(out), bad).toBe(false);
    }
  });
});

describe('parseStartTime', () => {
  test('ISO-8601 dates and zoned date-times, epoch ms', () => {
    expect(parseStartTime('2024-05-01')).toBe(Date.UTC(2024, 4, 1));
    expect(parseStartTime('2024-05-01T12:00Z')).toBe(Date.UTC(2024, 4, 1, 12));
    expect(parseStartTime('2024-05-01T14:00:00.250+02:00')).toBe(Date.UTC(2024, 4, 1, 12, 0, 0, 250));
    expect(parseStartTime('1714564800000')).toBe(Date.UTC(2024, 4, 1, 12));
    expect(parseStartTime('0')).toBe(0);
  });
  test('anything else is bad usage (exit 2) with the reason', () => {
    const why = (s: string) => {
      try {
        parseStartTime(s);
      } catch (e) {
        expect((e as CliError).exitCode).toBe(2);
        return (e as Error).message;
      }
      throw new Error(`${s} accepted`);
    };
    expect(why('2024-05-01T12:00:00')).toContain('a date-time needs a zone');
    expect(why('2024-02-30')).toContain('is not a valid date and time');
    expect(why('2023-02-29T00:00Z')).toContain('is not a valid date and time');
    expect(why('2024-05-01T24:00Z')).toContain('is not a valid date and time');
    for (const s of ['', 'yesterday', '2024-05-01 12:00Z', '-5', '1.5e12', 'May 1, 2024']) expect(why(s)).toMatch(/^--start-time: cannot read/);
    expect(why('99999999999999999999')).toContain('out of range');
  });
});
