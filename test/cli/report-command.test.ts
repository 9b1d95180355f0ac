/**
 * `loadlab report PATH` as a user runs it: the files of a run, rendered again from a copy of its
 * directory, are byte-identical to what `loadlab run` wrote; older versions render; bad input
 * exits 2 naming the file and the reason. The runs and the reports of them are in different
 * processes; a test's runs share one, its reports another (test/helpers/cli-batch.ts).
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { cliBatch, type CliResult } from '../helpers/cli-batch.js';

const dir = mkdtempSync(join(tmpdir(), 'loadlab-report-'));
const RENDERED = ['report.md', 'report.html', 'metrics.om'];
const read = (...p: string[]) => readFileSync(join(...p), 'utf8');

/** Runs a scenario into dir/name and returns a copy of that directory without the rendered files. */
function runAndCopy(scenario: string, name: string, ...flags: string[]): { run: string; copy: string } {
  return runAllAndCopy([[scenario, name, ...flags]])[0]!;
}

/** runAndCopy of each [scenario, name, ...flags], the runs in one child process. */
function runAllAndCopy(runs: string[][]): { run: string; copy: string }[] {
  const rs = cliBatch(runs.map(([scenario, name, ...flags]) => ({ args: ['run', scenario!, '--out', join(dir, name!), ...flags] })));
  return runs.map(([, name], i) => {
    expect([0, 99], rs[i]!.stderr).toContain(rs[i]!.status);
    const run = join(dir, name!);
    const copy = join(dir, `${name}-copy`);
    cpSync(run, copy, { recursive: true });
    for (const f of RENDERED) rmSync(join(copy, f));
    return { run, copy };
  });
}

describe('loadlab report', () => {
  const SCENARIOS = ['scenarios/steady-mix.yaml', 'scenarios/burst-rate-limit.yaml', 'scenarios/ci-gate.yaml', 'test/fixtures/ci-gate-failing.yaml'];
  // The four runs in one process, then the four reports in another; each test checks its own.
  let ran: { run: string; copy: string; report: CliResult }[] | undefined;
  const rendered = (i: number) => {
    if (!ran) {
      const runs = runAllAndCopy(SCENARIOS.map((sc) => [sc, sc.replace(/^.*\/|\.yaml$/g, '')]));
      const reports = cliBatch(runs.map(({ copy }) => ({ args: ['report', copy] })));
      ran = runs.map((r, j) => ({ ...r, report: reports[j]! }));
    }
    return ran[i]!;
  };
  test.each(SCENARIOS.map((sc, i) => [sc, i] as const))(
    '%s: report.md, report.html and metrics.om come out byte for byte as the run wrote them',
    (_scenario, i) => {
      const { run, copy, report: r } = rendered(i);
      expect(r.status, r.stderr).toBe(0);
      expect(r.stdout).toContain('(start as the run stored it)');
      for (const f of RENDERED) expect(read(copy, f) === read(run, f), f).toBe(true);
    },
  );

  test("--out renders elsewhere; --start-time moves metrics.om; JUnit only with --junit, the same as the run's", () => {
    const junit = join(dir, 'junit-run.xml');
    const { run, copy } = runAndCopy('test/fixtures/ci-gate-failing.yaml', 'flags', '--junit', junit, '--start-time', '2024-05-01T12:00:00Z');
    const out = join(dir, 'elsewhere');
    const again = join(dir, 'junit-again.xml');
    const moved = join(dir, 'moved');
    const [r, m] = cliBatch([
      { args: ['report', join(copy, 'report.json'), '--out', out] },
      { args: ['report', copy, '--out', moved, '--start-time', '2024-05-01T13:00:00Z', '--junit', again] },
    ]) as [CliResult, CliResult];
    expect(r.status, r.stderr).toBe(0);
    for (const f of RENDERED) expect(read(out, f) === read(run, f), f).toBe(true);
    expect(existsSync(join(out, 'report.json'))).toBe(false);
    expect(RENDERED.some((f) => existsSync(join(copy, f)))).toBe(false);

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
    const versions = [
      [2, () => {}],
      [
        1,
        () => {
          delete v3.windows;
          for (const f of Object.values(v3.flows) as { jobs?: unknown }[]) delete f.jobs;
        },
      ],
    ] as const;
    for (const [version, strip] of versions) {
      strip();
      const d = join(dir, `v${version}`);
      mkdirSync(d);
      writeFileSync(join(d, 'report.json'), JSON.stringify({ ...v3, version }));
    }
    const before = Date.now();
    const rs = cliBatch(versions.map(([version]) => ({ args: ['report', join(dir, `v${version}`)] })));
    for (const [i, [version]] of versions.entries()) {
      const d = join(dir, `v${version}`);
      const r = rs[i]!;
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
    const files: Record<string, string> = {
      'text.json': 'not json at all',
      'v9.json': '{"version": 9}',
      'array.json': '[1, 2]',
      'empty.json': '{"version": 3}',
    };
    for (const [f, text] of Object.entries(files)) writeFileSync(join(bad, f), text);
    const cases: [string, RegExp][] = [
      [join(bad, 'nowhere.json'), /nowhere\.json: no such file or directory/],
      [bad, /bad: a directory without report\.json/],
      [join(bad, 'text.json'), /text\.json: not JSON/],
      [join(bad, 'v9.json'), /v9\.json: version: unsupported RunResult version 9 \(this loadlab reads 1, 2 and 3\)/],
      [join(bad, 'array.json'), /array\.json: not a loadlab report: the top level is a JSON array/],
      [join(bad, 'empty.json'), /empty\.json: scenario: missing/],
    ];
    const rs = cliBatch([...cases.map(([path]) => ({ args: ['report', path] })), { args: ['report', join(bad, 'v9.json'), '--start-time', 'yesterday'] }]);
    cases.forEach(([path, message], i) => {
      const r = rs[i]!;
      expect(r.status, path).toBe(2);
      expect(r.stderr, path).toMatch(new RegExp(`^loadlab: .*${message.source}`));
    });
    const t = rs[cases.length]!;
    expect(t.status).toBe(2);
    expect(t.stderr).toMatch(/--start-time: cannot read "yesterday"/);
  });
});
