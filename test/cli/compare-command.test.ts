/**
 * `loadlab compare A B` as a user runs it: burst-rate-limit at workersMax 50 (A) and 5 (B, the
 * worse run: a deep queue, more polls and 429s), a run against itself, runs of different
 * scenarios, and bad input. The runs share one child process, the compares another, the bad
 * input a third (test/helpers/cli-batch.ts).
 */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { parse } from 'yaml';
import { batched, cliBatch } from '../helpers/cli-batch.js';

const dir = mkdtempSync(join(tmpdir(), 'loadlab-compare-'));
const read = (...p: string[]) => readFileSync(join(...p), 'utf8');
/** The markdown table row of `metric` in the section that starts with `heading`. */
function row(md: string, heading: string, metric: string): string[] {
  const section = md.slice(md.indexOf(heading));
  const line = section.split('\n').find((l) => l.startsWith(`| ${metric} |`))!;
  return line.slice(2, -2).split(' | ');
}

const [wide, narrow, steady] = [join(dir, 'workers-50'), join(dir, 'workers-5'), join(dir, 'steady')];

beforeAll(() => {
  const sc = parse(readFileSync('scenarios/burst-rate-limit.yaml', 'utf8')) as { endpoint: { workersMax: number }; $schema?: string };
  expect(sc.endpoint.workersMax).toBe(50);
  delete sc.$schema;
  const five = join(dir, 'burst-workers-5.json');
  writeFileSync(five, JSON.stringify({ ...sc, endpoint: { ...sc.endpoint, workersMax: 5 } }));
  const runs = [
    ['scenarios/burst-rate-limit.yaml', wide],
    [five, narrow],
    ['scenarios/ci-gate.yaml', steady],
  ] as const;
  for (const r of cliBatch(runs.map(([scenario, out]) => ({ args: ['run', scenario, '--out', out] })))) expect(r.status, r.stderr).toBe(0);
}, 180_000);

/** The compare of each test, all run when the first test asks. */
const COMPARES = {
  worse: { args: ['compare', wide, narrow, '--out', join(dir, 'worse'), '--fail-on-regression', '10'] },
  better: { args: ['compare', narrow, wide, '--out', join(dir, 'better'), '--fail-on-regression', '10'] },
  self: { args: ['compare', wide, join(wide, 'report.json'), '--out', join(dir, 'self'), '--fail-on-regression', '0'] },
  // Without --out: the files go to reports/compare/ of the working directory.
  different: { args: ['compare', wide, steady], cwd: dir },
};
const compared = batched(() => Object.values(COMPARES));
const cli = (name: keyof typeof COMPARES) => compared(Object.keys(COMPARES).indexOf(name));

describe('loadlab compare', () => {
  test('fewer workers (B): compare.md shows more 429s and queue delay; --fail-on-regression 10 exits 99 naming the metrics', () => {
    const out = join(dir, 'worse');
    const r = cli('worse');
    expect(r.status, r.stderr).toBe(99);
    expect(r.stdout).toContain(`loadlab compare: A burst-rate-limit (${join(wide, 'report.json')}) vs B burst-rate-limit (${join(narrow, 'report.json')})`);
    expect(r.stdout).toMatch(/regressions beyond 10 %: \d+/);
    expect(r.stderr).toMatch(/^loadlab: \d+ metrics regressed by more than 10 %:\n/);
    expect(r.stderr).toMatch(/^ {2}flow spike: queue delay p95 [\d ]+ ms → [\d ]+ ms \(\+[\d ]+ ms, \+[\d.]+ %\)$/m);
    expect(r.stderr).toMatch(/^ {2}flow spike: turnaround p99 /m);
    expect(r.stderr).toMatch(/^ {2}operation status: 429 rate [\d.]+ % → [\d.]+ % \(\+[\d.]+ pp, \+[\d.]+ %\)$/m);
    expect(r.stderr).toMatch(/^ {2}run: 429 rate /m);

    const md = read(out, 'compare.md');
    const [, a429, b429, , , dir429] = row(md, '### Operation `status`', '429s');
    expect(Number(b429!.replace(/ /g, ''))).toBeGreaterThan(Number(a429!.replace(/ /g, '')));
    expect(dir429).toBe('**worse**');
    const [, aq, bq, change, , dirq] = row(md, '### Flow `spike`', 'queue delay p95');
    expect(parseInt(bq!.replace(/ /g, ''), 10)).toBeGreaterThan(parseInt(aq!.replace(/ /g, ''), 10));
    expect(change).toMatch(/^\+[\d ]+ ms$/);
    expect(dirq).toBe('**worse: regression**');
    expect(md).toMatch(/## Regressions \(worse by more than 10 %\)\n\n- operation status: 429 rate/);

    const html = read(out, 'compare.html');
    expect(html).toContain('<td class="worse regression">worse: regression</td>');
    for (const id of ['requests', 'limited', 'queue-delay-p95']) expect(html).toContain(`<figure class="chart" id="chart-${id}">`);
    expect(html).toContain('"label":"B spike p95"');
    expect(html).not.toMatch(/<script[^>]+src=|<link /);
  });

  test('the other way round B is better: no regression, exit 0', () => {
    const r = cli('better');
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain('no regression beyond 10 %');
    expect(row(read(dir, 'better', 'compare.md'), '### Flow `spike`', 'queue delay p95')[5]).toBe('better');
  });

  test('a run against itself: everything the same, exit 0 even with --fail-on-regression 0', () => {
    const out = join(dir, 'self');
    const r = cli('self');
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/B against A: 0 better, 0 worse, \d+ the same/);
    expect(r.stdout).toContain('no regression beyond 0 %');
    const md = read(out, 'compare.md');
    expect(md).toContain('## Regressions (worse by more than 0 %)\n\nNone.');
    expect(md).not.toMatch(/\| (\*\*worse|better|more|fewer)/);
    expect(md.match(/\| same \|$/gm)!.length).toBeGreaterThan(20);
  });

  test('different scenarios compare with warnings; without --out, the files go to reports/compare/', () => {
    const r = cli('different');
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain('warning: different scenarios: A is burst-rate-limit, B is ci-gate');
    expect(r.stdout).toContain('warning: flow spike only in A');
    expect(r.stdout).toContain('warning: operation runsync only in B');
    const md = read(dir, 'reports', 'compare', 'compare.md');
    expect(md).toContain('### Operation `runsync` (only in B)');
    expect(row(md, '### Operation `runsync`', 'response p99')).toEqual(['response p99', '–', expect.stringMatching(/ ms$/), '–', '–', 'n/a']);
    expect(existsSync(join(dir, 'reports', 'compare', 'compare.html'))).toBe(true);
  });

  test('bad input: exit 2 naming the file or flag and the reason, nothing written', () => {
    const notJson = join(dir, 'not.json');
    writeFileSync(notJson, '{"version": 3,');
    const out = join(dir, 'bad-out');
    const cases: [string[], RegExp][] = [
      [[join(dir, 'missing'), wide], /missing: no such file or directory/],
      [[wide, notJson], /not\.json: not JSON/],
      [[wide, narrow, '--fail-on-regression', 'ten'], /--fail-on-regression: a percentage >= 0 \(e\.g\. 10\), got something that is not a number/],
      [[wide, narrow, '--fail-on-regression', '-5'], /--fail-on-regression: a percentage >= 0 \(e\.g\. 10\), got -5/],
      [[wide], /Not enough non-option arguments/],
    ];
    const rs = cliBatch(cases.map(([args]) => ({ args: ['compare', ...args, '--out', out] })));
    cases.forEach(([args, message], i) => {
      expect(rs[i]!.status, args.join(' ')).toBe(2);
      expect(rs[i]!.stderr, args.join(' ')).toMatch(message);
    });
    expect(existsSync(out)).toBe(false);
  });
});
