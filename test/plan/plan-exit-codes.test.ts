/**
 * `loadlab plan` exit codes: 99 when no point meets the SLOs (plan.json says null), 2 on bad input
 * with a message naming the flag or the scenario's file and field, and --exhaustive running every
 * point where the default stops early.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { cliBatch } from '../helpers/cli-batch.js';
import { plan, planJson, planMd } from './plan-cli.js';

const dir = mkdtempSync(join(tmpdir(), 'loadlab-plan-exit-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const FILE = 'test/fixtures/plan-small.yaml';

describe('loadlab plan: outcomes', () => {
  test('no point meets the SLOs: exit 99, recommendation null in plan.json, said first on stdout and in plan.md', () => {
    const out = join(dir, 'none');
    const r = plan([FILE, '--workers-max', '1..3', '--seeds', '2', '--slo', 'queue_delay_max_ms < 0', '--out', out]);
    expect(r.status, r.stderr).toBe(99);
    expect(r.stdout).toMatch(/^NO RECOMMENDATION: no workersMax in 1\.\.3 meets every SLO on all 2 seeds/);
    expect(r.stderr).toMatch(/^loadlab: no point meets the SLOs/);
    const p = JSON.parse(planJson(out));
    expect(p.recommendation.workersMax).toBeNull();
    expect(p.slo).toEqual({ source: '--slo', exprs: ['queue_delay_max_ms < 0'] });
    expect(p.rows).toHaveLength(3);
    expect(planMd(out)).toMatch(/^# Capacity plan: plan-small\n\n\*\*No recommendation\*\*/);
    // plan.html: the charts and plan.md's tables as one self-contained page (uPlot inlined, nothing fetched).
    const html = readFileSync(join(out, 'plan.html'), 'utf8');
    expect(html).toContain('<p><strong>No recommendation</strong>: no workersMax in 1..3 meets every SLO on all 2 seeds.</p>');
    expect(html).toMatch(/<table><thead><tr><th>workersMax<\/th>/);
    expect(html).toContain('<figure class="chart" id="chart-slo-1">');
    expect(html).not.toMatch(/<(script|link|img)[^>]+(src|href)=/);
  });

  test('early stop by default; --exhaustive runs every point and recommends the same', () => {
    const early = plan([FILE, '--workers-max', '1..8', '--seeds', '1', '--out', join(dir, 'early')]);
    const all = plan([FILE, '--workers-max', '1..8', '--seeds', '1', '--exhaustive', '--out', join(dir, 'all')]);
    expect(early.status, early.stderr).toBe(0);
    expect(all.status, all.stderr).toBe(0);
    const e = JSON.parse(planJson(join(dir, 'early')));
    const a = JSON.parse(planJson(join(dir, 'all')));
    expect(a.rows.map((r: { workersMax: number }) => r.workersMax)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(a.sweep.stoppedAfter).toBeNull();
    expect(e.recommendation.workersMax).toBe(a.recommendation.workersMax);
    expect(e.sweep.stoppedAfter).toBe(e.recommendation.workersMax + 2);
    expect(e.rows).toEqual(a.rows.slice(0, e.rows.length));
  });
});

describe('loadlab plan: bad input exits 2 naming the field', () => {
  /** Each `loadlab plan ARGS --out …` exits 2 with its message and nothing on stdout; one child process runs them all (test/helpers/cli-batch.ts). */
  const bad = (...cases: [args: string[], message: RegExp][]) => {
    const rs = cliBatch(cases.map(([args]) => ({ args: ['plan', ...args, '--out', join(dir, 'bad')] })));
    rs.forEach((r, i) => {
      const what = cases[i]![0].join(' ');
      expect(r.status, `${what}\n${r.stderr}`).toBe(2);
      expect(r.stderr, what).toMatch(cases[i]![1]);
      expect(r.stdout, what).toBe('');
    });
  };
  test('a range upside down, or not a range', () => {
    bad(
      [[FILE, '--workers-max', '5..1'], /^loadlab: --workers-max: "5\.\.1": FROM \(5\) is above TO \(1\); write 1\.\.5\n$/],
      [[FILE, '--workers-max', 'five'], /^loadlab: --workers-max: "five" is not a range: expected FROM\.\.TO/],
      [[FILE, '--workers-max', '0..3'], /--workers-max: "0\.\.3": workersMax starts at 1/],
    );
  });
  test("an SLO with an unknown metric, from --slo or from the scenario's slo: list", () => {
    const f = join(dir, 'bad-slo.yaml');
    writeFileSync(
      f,
      'name: bad-slo\ndurationMs: 1000\ntraffic:\n  - { name: a, arrival: { process: constant, ratePerSec: 1 }, client: { behaviour: run-poll } }\nslo:\n  - jobs_completed > 0\n  - turnaround_p95_ms{flow=b} < 1000\n',
    );
    bad(
      [[FILE, '--slo', 'turnaround_p96_ms < 100'], /--slo "turnaround_p96_ms < 100": unknown metric "turnaround_p96_ms".*did you mean "turnaround_p9\d_ms"/],
      [[FILE, '--slo', 'p99_ms{flow=nope} < 100'], /--slo "p99_ms\{flow=nope\} < 100": metric "p99_ms" takes only \{operation=…\}/],
      [[f, '--workers-max', '1..2'], new RegExp(`${f.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}: slo\\.1: unknown flow "b"`)],
    );
  });
  test('seeds, jobs, prices and GPU names', () => {
    bad(
      [[FILE, '--seeds', '0'], /--seeds: must be a whole number >= 1, got 0/],
      [[FILE, '--jobs', '1.5'], /--jobs: must be a whole number >= 1, got 1\.5/],
      [[FILE, '--gpu', 'Z80'], /--gpu: unknown GPU "Z80" in price book 2026; known: 16GB, A4000, .*, H100-PRO, H100, H200, H200-PRO, B200/],
      [[FILE, '--gpu', 'L4', '--price-book', '2025'], /--gpu: unknown GPU "L4" in price book 2025; known: H100-PRO, A100, 4090-PRO, H200, B200/],
      [[FILE, '--gpu', 'A100', '--price-book', '2024'], /--price-book: unknown price book "2024"; known: 2026 \(2026-05-13\), 2025 \(until 2026-05-12\)/],
      [[FILE, '--price-flex', '0.001'], /--price-active: give both --price-flex and --price-active, or --gpu NAME/],
      [[FILE, '--price-flex', '-1', '--price-active', '1'], /--price-flex: must be a price per worker-second in dollars, >= 0, got -1/],
      [[FILE, '--workers-min', 'some'], /--workers-min: "some" is neither a whole number nor "max"/],
    );
  });
});
