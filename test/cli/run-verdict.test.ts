/**
 * The verdict through the CLI, in-process: the first line of the terminal summary and of
 * report.md, the JUnit validity case, `$GITHUB_STEP_SUMMARY`, and the exit codes of the CI gate
 * (scenarios/ci-gate.yaml passes: 0; its failing variant: 99; a generator that fell behind: 1).
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
    expect(xml).toMatch(/<testcase classname="loadlab.ci-gate" name="run is valid" time="0">\n {6}<system-out>the target answered; 0 of \d+ arrivals late or dropped/);
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
    expect(readFileSync(summary, 'utf8')).toMatch(/^### loadlab run ci-gate-failing: FAIL\n[^]*\| \*\*FAIL\*\* \|/);
  });
});

describe('a generator that fell behind', () => {
  test('more than 1 % of arrivals late: INVALID, exit 1 with the cause, JUnit validity case fails', () => {
    // One request in flight at a time, 2 arrivals a second of 1 s runsync calls: most wait for the slot.
    const f = join(dir, 'behind.json');
    writeFileSync(f, JSON.stringify({
      name: 'behind', durationMs: 10_000, endpoint: { workersMax: 1, jobDurationMs: 1000 },
      openModel: { maxInFlight: 1 },
      traffic: [{ name: 's', arrival: { process: 'constant', ratePerSec: 2 }, client: { behaviour: 'runsync', waitMs: 30_000 } }],
      thresholds: ['jobs_failed == 0'],
    }));
    const out = join(dir, 'behind');
    const r = cli([f, '--out', out, '--junit', join(out, 'junit.xml')]);
    expect(r.status).toBe(1);
    const cause = /^loadlab: (the load generator fell behind: [\d.]+ % of arrivals late or dropped \(\d+ late, \d+ dropped of 20\); latency figures are not trustworthy)\n$/.exec(r.stderr);
    expect(cause, r.stderr).not.toBeNull();
    expect(firstLine(r.stdout)).toBe(`INVALID: ${cause![1]}`);
    expect(firstLine(readFileSync(join(out, 'report.md'), 'utf8'))).toBe(`INVALID: ${cause![1]}  `);
    const rep = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8'));
    expect(rep.arrivals.late + rep.arrivals.dropped).toBeGreaterThan(rep.arrivals.intended / 100);
    const xml = readFileSync(join(out, 'junit.xml'), 'utf8');
    expect(xml).toContain('<testsuite name="loadlab.behind" tests="2" failures="1"');
    expect(xml).toMatch(/name="run is valid" time="0">\n {6}<failure message="the load generator fell behind: /);
  });
});
