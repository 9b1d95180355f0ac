/**
 * The real consumer: `promtool tsdb create-blocks-from openmetrics` turns a run's metrics.om into
 * TSDB blocks, and `promtool tsdb list` / `dump` show every sample and series at its timestamp.
 * Without promtool on PATH the test is skipped (apt-get install -y prometheus), except under
 * CI=true, where its absence fails.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { parseOpenMetrics } from './openmetrics-check.js';

const promtool = (...args: string[]) => spawnSync('promtool', args, { encoding: 'utf8', timeout: 60_000 });
const present = !promtool('--version').error;
const MISSING = 'promtool is not on PATH (Debian/Ubuntu: apt-get install -y prometheus; .ci/run installs it)';

test('promtool create-blocks-from openmetrics accepts metrics.om; the blocks hold every sample and series', (ctx) => {
  if (!present) {
    if (process.env.CI === 'true') throw new Error(`${MISSING}; CI=true needs it`);
    ctx.skip(MISSING);
  }
  const dir = mkdtempSync(join(tmpdir(), 'loadlab-promtool-'));
  const sc = join(dir, 'sc.json');
  writeFileSync(
    sc,
    JSON.stringify({
      name: 'promtool-check',
      seed: 'quote " backslash \\ line\nfeed',
      durationMs: 30_000,
      drainMs: 30_000,
      endpoint: { id: 'pt', workersMax: 1, jobDurationMs: 1500, limits: { operations: { run: { rate: 8 } } } },
      traffic: [
        { name: 'p', arrival: { process: 'constant', ratePerSec: 1 }, client: { behaviour: 'run-poll', poll: { baseMs: 500, factor: 1, jitter: 0 } } },
        { name: 's', arrival: { process: 'constant', ratePerSec: 0.5 }, client: { behaviour: 'runsync', waitMs: 2000 } },
      ],
    }),
  );
  const out = join(dir, 'out');
  const run = spawnSync('node', ['bin/loadlab.js', 'run', sc, '--out', out, '--start-time', '2024-05-01T12:00:00Z'], {
    encoding: 'utf8',
    env: { ...process.env, CI: 'true' },
    timeout: 60_000,
  });
  expect(run.status, run.stderr).toBe(0);
  const om = readFileSync(join(out, 'metrics.om'), 'utf8');
  const fams = parseOpenMetrics(om);
  const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8'));

  const db = join(dir, 'tsdb');
  const created = promtool('tsdb', 'create-blocks-from', 'openmetrics', join(out, 'metrics.om'), db);
  expect(created.status, `${created.stdout}${created.stderr}`).toBe(0);

  // list: the blocks hold exactly the file's samples, from the start instant to the end of the run.
  const rows = promtool('tsdb', 'list', db)
    .stdout.trim()
    .split('\n')
    .slice(1)
    .map((l) => l.trim().split(/\s+/));
  const start = Date.UTC(2024, 4, 1, 12);
  expect(Math.min(...rows.map((r) => Number(r[1])))).toBe(start);
  const last = Math.max(...fams.flatMap((f) => f.samples.map((x) => x.ms)));
  expect(last - start - report.elapsedMs).toBeGreaterThanOrEqual(0); // the end of the run (+1 ms when its last window starts there)
  expect(last - start - report.elapsedMs).toBeLessThanOrEqual(1);
  expect(Math.max(...rows.map((r) => Number(r[2])))).toBe(last + 1); // list shows max time + 1
  const sampleLines = om.split('\n').filter((l) => l && !l.startsWith('#')).length;
  expect(rows.reduce((n, r) => n + Number(r[4]), 0)).toBe(sampleLines);

  // dump (wants a wal directory): one series per distinct name and label set in the file.
  mkdirSync(join(db, 'wal'), { recursive: true });
  const dump = promtool('tsdb', 'dump', db);
  expect(dump.status, dump.stderr).toBe(0);
  const dumped = new Set(
    dump.stdout
      .trim()
      .split('\n')
      .map((l) => l.slice(0, l.lastIndexOf('} ') + 1)),
  );
  const inFile = new Set(fams.flatMap((f) => f.samples.map((s) => JSON.stringify([s.name, Object.entries(s.labels).sort()]))));
  expect(dumped.size).toBe(inFile.size);
  const lines = (name: string, ...labels: string[]) =>
    dump.stdout.split('\n').filter((l) => l.startsWith(`{__name__="${name}"`) && labels.every((x) => l.includes(x)));
  for (const [op, o] of Object.entries(report.operations as Record<string, { requests: number; responseMs: { count: number } }>)) {
    expect(lines('loadlab_client_requests_total', `operation="${op}"`).at(-1), op).toMatch(new RegExp(` ${o.requests} \\d+$`));
    // The per-window histogram: every bucket a series, +Inf at the end holding every answer.
    expect(new Set(lines('loadlab_client_response_seconds_bucket', `operation="${op}"`).map((l) => /le="([^"]+)"/.exec(l)![1])).size, op).toBe(18);
    expect(lines('loadlab_client_response_seconds_bucket', `operation="${op}"`, 'le="+Inf"').at(-1), op).toMatch(new RegExp(` ${o.responseMs.count} \\d+$`));
  }
  const limited = lines('loadlab_requests_limited_total', 'cause="rate"');
  expect(Number(limited.at(-1)!.split(' ').at(-2))).toBe(report.operations.run.limited.rate);
  expect(report.operations.run.limited.rate).toBeGreaterThan(0);
  // The escaped seed came through as one label value (Go quotes it again in the dump).
  expect(dump.stdout).toContain('seed="quote \\" backslash \\\\ line\\nfeed"');
});
