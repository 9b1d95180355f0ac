/**
 * The verdict through the CLI, in-process: the first line of the terminal summary and of
 * report.md, the JUnit validity case, `$GITHUB_STEP_SUMMARY`, and the exit codes of the CI gate
 * (scenarios/ci-gate.yaml passes: 0; its failing variant: 99; a generator whose lateness decided a
 * threshold: 1, one whose lateness decided nothing: 0 with a warning).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';

const dir = mkdtempSync(join(tmpdir(), 'loadlab-verdict-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function cli(args: string[], extraEnv: NodeJS.ProcessEnv = {}) {
  const env: NodeJS.ProcessEnv = { ...process.env, CI: 'true', ...extraEnv };
  if (!('GITHUB_STEP_SUMMARY' in extraEnv)) delete env.GITHUB_STEP_SUMMARY;
  return spawnSync('node', ['bin/loadlab.js', 'run', ...args], { encoding: 'utf8', env, timeout: 60_000 });
}
const firstLine = (s: string) => s.split('\n')[0];

describe('the CI gate', () => {
  test('ci-gate.yaml passes: exit 0, PASS first on the terminal and in report.md, JUnit validity case, step summary', () => {
    const out = join(dir, 'gate');
    const summary = join(dir, 'gate-summary.md');
    writeFileSync(summary, '# earlier step\n');
    const r = cli(['scenarios/ci-gate.yaml', '--out', out, '--junit', join(out, 'junit.xml')], { GITHUB_STEP_SUMMARY: summary });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toBe('');
    const lines = r.stdout.split('\n');
    expect(lines[0]).toBe('PASS');
    expect(lines[1]).toBe('throttled by: rate 0, queue 0, concurrency 0');
    expect(lines[2]).toMatch(/^limits above 80 %: /);
    expect(firstLine(readFileSync(join(out, 'report.md'), 'utf8'))).toMatch(/^PASS {2}$/);
    const xml = readFileSync(join(out, 'junit.xml'), 'utf8');
    expect(xml).toMatch(/<testsuite name="loadlab.ci-gate" tests="5" failures="0"/);
    expect(xml).toMatch(
      /<testcase classname="loadlab.ci-gate" name="run is valid" time="0">\n {6}<system-out>the target answered; 0 of \d+ arrivals late or dropped/,
    );
    const md = readFileSync(summary, 'utf8');
    // Appended, never overwritten (other steps write there too).
    expect(md.startsWith('# earlier step\n### loadlab run ci-gate: PASS\n')).toBe(true);
    expect(md).toContain('| `p99_ms{runsync} < 10000` |');
    expect(md).toMatch(/\| operation \| requests \| by status/);
  });

  test('the failing variant exits 99; the verdict names the threshold, measured vs limit; the step summary says FAIL', () => {
    const out = join(dir, 'fail');
    const summary = join(dir, 'fail-summary.md');
    const r = cli(['test/fixtures/ci-gate-failing.yaml', '--out', out, '--junit', join(out, 'junit.xml')], { GITHUB_STEP_SUMMARY: summary });
    expect(r.status).toBe(99);
    expect(firstLine(r.stdout)).toMatch(/^FAIL: p99_ms\{runsync\} < 1000 \(measured \d+\)$/);
    expect(r.stderr).toMatch(/^loadlab: threshold failed: p99_ms\{runsync\} < 1000 \(measured \d+\)\n$/);
    expect(firstLine(readFileSync(join(out, 'report.md'), 'utf8'))).toMatch(/^FAIL: p99_ms\{runsync\} < 1000/);
    const xml = readFileSync(join(out, 'junit.xml'), 'utf8');
    expect(xml).toMatch(/tests="5" failures="1"/);
    expect(readFileSync(summary, 'utf8')).toMatch(/^### loadlab run ci-gate-failing: FAIL\n[\s\S]*\| \*\*FAIL\*\* \|/);
  });
});

describe('a generator that fell behind', () => {
  /** One request in flight at a time, 2 arrivals a second of 1 s runsync calls: most wait for the slot, up to 9.5 s. */
  function held(name: string, thresholds: string[]): string {
    const f = join(dir, `${name}.json`);
    writeFileSync(
      f,
      JSON.stringify({
        name,
        durationMs: 10_000,
        endpoint: { workersMax: 1, jobDurationMs: 1000 },
        openModel: { maxInFlight: 1 },
        traffic: [{ name: 's', arrival: { process: 'constant', ratePerSec: 2 }, client: { behaviour: 'runsync', waitMs: 30_000 } }],
        thresholds,
      }),
    );
    return f;
  }
  const LAG = '19 of 20 arrivals late, send lag p99 9 500 ms, max 9 500 ms';

  test('late arrivals that decide a latency threshold: INVALID, exit 1 naming it and the lateness; JUnit validity case fails; `loadlab report` says the same', () => {
    const out = join(dir, 'behind');
    const r = cli([held('behind', ['p99_ms{runsync} < 2000', 'jobs_failed == 0']), '--out', out, '--junit', join(out, 'junit.xml')]);
    expect(r.status).toBe(1);
    const cause = `the load generator fell behind, and that decides p99_ms{runsync} < 2000 (measured 10500 from the intended send, 1000 from the actual send): ${LAG}`;
    expect(r.stderr).toBe(`loadlab: ${cause}\n`);
    expect(firstLine(r.stdout)).toBe(`INVALID: ${cause}`);
    expect(firstLine(readFileSync(join(out, 'report.md'), 'utf8'))).toBe(`INVALID: ${cause}  `);
    const rep = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8'));
    expect(rep.thresholds[0]).toEqual({ expr: 'p99_ms{runsync} < 2000', value: 10500, ok: false, fromSend: { value: 1000, ok: true } });
    const xml = readFileSync(join(out, 'junit.xml'), 'utf8');
    expect(xml).toContain('<testsuite name="loadlab.behind" tests="3" failures="2"');
    expect(xml).toMatch(/name="run is valid" time="0">\n {6}<failure message="the load generator fell behind, and that decides /);
    const again = spawnSync('node', ['bin/loadlab.js', 'report', out, '--out', join(dir, 'behind-again')], { encoding: 'utf8', timeout: 60_000 });
    expect(again.status, again.stderr).toBe(0);
    expect(firstLine(again.stdout)).toBe(`INVALID: ${cause}`);
  });

  test('late arrivals that decide nothing: the verdict stands (exit 0) with one warning line after it', () => {
    const out = join(dir, 'late-pass');
    const r = cli([held('late-pass', ['p99_ms{runsync} < 60000']), '--out', out, '--junit', join(out, 'junit.xml')]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toBe('');
    const warning = `warning: ${LAG}; every response-time and turnaround threshold judges the same from the actual send`;
    expect(r.stdout.split('\n').slice(0, 3)).toEqual(['PASS', warning, 'throttled by: rate 0, queue 0, concurrency 0']);
    expect(readFileSync(join(out, 'report.md'), 'utf8').split('\n').slice(0, 2)).toEqual(['PASS  ', `${warning}  `]);
    expect(readFileSync(join(out, 'junit.xml'), 'utf8')).toContain(`<system-out>the target answered; ${LAG}; every response-time`);
  });
});
