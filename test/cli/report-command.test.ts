/**
 * `loadlab report PATH` as a user runs it: the files of a run, rendered again from a copy of its
 * directory, are byte-identical to what `loadlab run` wrote; older versions render; bad input
 * exits 2 naming the file and the reason.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';

const dir = mkdtempSync(join(tmpdir(), 'loadlab-report-'));
const cli = (...args: string[]) => spawnSync('node', ['bin/loadlab.js', ...args], { encoding: 'utf8', env: { ...process.env, CI: 'true' }, timeout: 60_000 });
const RENDERED = ['report.md', 'report.html', 'metrics.om'];
const read = (...p: string[]) => readFileSync(join(...p), 'utf8');

/** Runs a scenario into dir/name and returns a copy of that directory without the rendered files. */
function runAndCopy(scenario: string, name: string, ...flags: string[]): { run: string; copy: string } {
  const run = join(dir, name);
  const r = cli('run', scenario, '--out', run, ...flags);
  expect([0, 99], r.stderr).toContain(r.status);
  const copy = join(dir, `${name}-copy`);
  cpSync(run, copy, { recursive: true });
  for (const f of RENDERED) rmSync(join(copy, f));
  return { run, copy };
}

describe('loadlab report', () => {
  test.each([
    ['scenarios/steady-mix.yaml'], ['scenarios/burst-rate-limit.yaml'], ['scenarios/ci-gate.yaml'], ['test/fixtures/ci-gate-failing.yaml'],
  ])('%s: report.md, report.html and metrics.om come out byte for byte as the run wrote them', (scenario) => {
    const name = scenario.replace(/^.*\/|\.yaml$/g, '');
    const { run, copy } = runAndCopy(scenario, name);
    const r = cli('report', copy);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain('(start as the run stored it)');
    for (const f of RENDERED) expect(read(copy, f) === read(run, f), f).toBe(true);
  });

  test('--out renders elsewhere; --start-time moves metrics.om; JUnit only with --junit, the same as the run\'s', () => {
    const junit = join(dir, 'junit-run.xml');
    const { run, copy } = runAndCopy('test/fixtures/ci-gate-failing.yaml', 'flags', '--junit', junit, '--start-time', '2024-05-01T12:00:00Z');
    const out = join(dir, 'elsewhere');
    const r = cli('report', join(copy, 'report.json'), '--out', out);
    expect(r.status, r.stderr).toBe(0);
    for (const f of RENDERED) expect(read(out, f) === read(run, f), f).toBe(true);
    expect(existsSync(join(out, 'report.json'))).toBe(false);
    expect(RENDERED.some((f) => existsSync(join(copy, f)))).toBe(false);

    const again = join(dir, 'junit-again.xml');
    const moved = join(dir, 'moved');
    const m = cli('report', copy, '--out', moved, '--start-time', '2024-05-01T13:00:00Z', '--junit', again);
    expect(m.status, m.stderr).toBe(0);
    expect(read(again)).toBe(read(junit));
    expect(read(moved, 'report.md')).toBe(read(run, 'report.md'));
    expect(read(moved, 'metrics.om')).not.toBe(read(run, 'metrics.om'));
    expect(read(moved, 'metrics.om')).toMatch(/ 1714568400\.000$/m);
  });

  test('versions 1 and 2 render; without a stored start, metrics.om ends about now', () => {
    const { copy } = runAndCopy('scenarios/ci-gate.yaml', 'old');
    const v3 = JSON.parse(read(copy, 'report.json'));
    delete v3.wallClock.metricsStartMs;
    delete v3.windows.requests;
    delete v3.windows.endpoint;
    for (const [version, strip] of [[2, () => {}], [1, () => { delete v3.windows; for (const f of Object.values(v3.flows) as { jobs?: unknown }[]) delete f.jobs; }]] as const) {
      strip();
      const d = join(dir, `v${version}`);
      mkdirSync(d);
      writeFileSync(join(d, 'report.json'), JSON.stringify({ ...v3, version }));
      const before = Date.now();
      const r = cli('report', d);
      expect(r.status, r.stderr).toBe(0);
      expect(r.stdout).toContain(`version ${version} report`);
      expect(r.stdout).toContain('not stored in this report');
      expect(read(d, 'report.md')).toMatch(/^# loadlab run: ci-gate$/m);
      const last = /to (\S+) \(start/.exec(r.stdout)![1]!;
      expect(Date.parse(last)).toBeGreaterThan(before - 2000);
    }
  });

  test('bad input: exit 2 naming the file and the reason', () => {
    const bad = join(dir, 'bad');
    mkdirSync(bad);
    const files: Record<string, string> = { 'text.json': 'not json at all', 'v9.json': '{"version": 9}', 'array.json': '[1, 2]', 'empty.json': '{"version": 3}' };
    for (const [f, text] of Object.entries(files)) writeFileSync(join(bad, f), text);
    const cases: [string, RegExp][] = [
      [join(bad, 'nowhere.json'), /nowhere\.json: no such file or directory/],
      [bad, /bad: a directory without report\.json/],
      [join(bad, 'text.json'), /text\.json: not JSON/],
      [join(bad, 'v9.json'), /v9\.json: version: unsupported RunResult version 9 \(this loadlab reads 1, 2 and 3\)/],
      [join(bad, 'array.json'), /array\.json: not a loadlab report: the top level is a JSON array/],
      [join(bad, 'empty.json'), /empty\.json: scenario: missing/],
    ];
    for (const [path, message] of cases) {
      const r = cli('report', path);
      expect(r.status, path).toBe(2);
      expect(r.stderr, path).toMatch(new RegExp(`^loadlab: .*${message.source}`));
    }
    const t = cli('report', join(bad, 'v9.json'), '--start-time', 'yesterday');
    expect(t.status).toBe(2);
    expect(t.stderr).toMatch(/--start-time: cannot read "yesterday"/);
  });
});
