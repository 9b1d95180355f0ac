/**
 * `loadlab run` bills the workers it saw, as `loadlab plan` does (report/worker-bill.ts), on
 * test/fixtures/plan-cost.yaml, whose worker lifetimes follow from its constants: each of two jobs
 * wakes a flex worker, which starts cold (coldStartMs, not billed by default), runs the job
 * (jobDurationMs) and stops idleTimeoutMs later (billed past the run's end). The expected figures are computed here from
 * those constants; the plan of the same scenario must bill the same.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { parse, stringify } from 'yaml';
import { PRICE_BOOK_2026 } from '../../src/report/prices.js';
import type { RunResult } from '../../src/report/run-result.js';
import { cliBatch, type CliResult } from '../helpers/cli-batch.js';
import { planJson } from '../plan/plan-cli.js';

const dir = mkdtempSync(join(tmpdir(), 'loadlab-run-cost-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const FILE = 'test/fixtures/plan-cost.yaml';
const raw = parse(readFileSync(FILE, 'utf8'));
const { coldStartMs, jobDurationMs, idleTimeoutMs } = raw.endpoint as { coldStartMs: number; jobDurationMs: number; idleTimeoutMs: number };

/** The command lines of a test, in order, in one child process (test/helpers/cli-batch.ts). */
const cli = (...lines: string[][]): CliResult[] => cliBatch(lines.map((args) => ({ args })));
const reportOf = (out: string): RunResult => JSON.parse(readFileSync(join(out, 'report.json'), 'utf8'));

/** The fixture with `change` applied, as a new file. */
function variant(name: string, change: (s: Record<string, any>) => void): string {
  const s = structuredClone(raw);
  change(s);
  const f = join(dir, `${name}.yaml`);
  writeFileSync(f, stringify(s));
  return f;
}

describe('loadlab run: workers and cost', () => {
  test('--gpu: flex workers billed per second, rounded up, idle tail included, cold start not; cost per run, hour and 1 000 jobs', () => {
    const out = join(dir, 'gpu');
    const planOut = join(dir, 'plan');
    const [r, p] = cli(
      ['run', FILE, '--gpu', '4090-PRO', '--out', out],
      ['plan', FILE, '--workers-max', String(raw.endpoint.workersMax), '--seeds', '1', '--gpu', '4090-PRO', '--out', planOut],
    ) as [CliResult, CliResult];
    expect(r.status, r.stderr).toBe(0);
    const rep = reportOf(out);
    const w = rep.workers!;
    const perWorker = Math.ceil((jobDurationMs + idleTimeoutMs) / 1000);
    const price = PRICE_BOOK_2026.gpus['4090-PRO']!;
    expect(w.started).toBe(2);
    expect(w.billedSeconds).toEqual({ active: 0, flex: 2 * perWorker });
    expect(w.secondsByState.initializing).toBe((2 * coldStartMs) / 1000);
    expect(w.secondsByState.running).toBe((2 * jobDurationMs) / 1000);
    expect(w.secondsByState.throttled).toBe(0);
    const perRun = 2 * perWorker * price.flexPerSec;
    expect(w.cost!.prices).toEqual({ ...price, gpu: '4090-PRO', asOf: '2026-05-13', priceBook: '2026' });
    expect(w.billing).toEqual({ initializing: false, billedStates: ['running', 'idle'], priceBook: '2026', asOf: '2026-05-13', gpu: '4090-PRO' });
    expect(w.cost!.perRun).toBeCloseTo(perRun, 6);
    expect(w.cost!.perHour).toBeCloseTo((perRun * 3_600_000) / rep.elapsedMs, 5);
    expect(w.cost!.per1000Jobs).toBeCloseTo((perRun * 1000) / 2, 5);
    const md = readFileSync(join(out, 'report.md'), 'utf8');
    expect(md).toContain('## Workers and cost');
    expect(md).toContain(`| billed seconds flex / active | ${2 * perWorker} / 0 |`);
    expect(readFileSync(join(out, 'report.html'), 'utf8')).toContain('<h2>Workers and cost</h2>');
    const om = readFileSync(join(out, 'metrics.om'), 'utf8');
    expect(om).toMatch(new RegExp(`^loadlab_client_worker_billed_seconds_total\\{[^}]*billing="flex"\\} ${2 * perWorker} `, 'm'));
    expect(om).toMatch(new RegExp(`^loadlab_client_worker_seconds_total\\{[^}]*state="running"\\} ${(2 * jobDurationMs) / 1000} `, 'm'));
    expect(r.stdout).toContain(`workers: 2 started; billed ${2 * perWorker} s flex, 0 s active; cost $`);

    // One source of truth: the plan of the same scenario at its workersMax bills the same.
    expect(p.status, p.stderr).toBe(0);
    const row = JSON.parse(planJson(planOut)).rows[0];
    expect(row.workers.flexSeconds[0]).toBe(w.billedSeconds.flex);
    expect(row.workers.activeSeconds[0]).toBe(w.billedSeconds.active);
    expect(row.cost.perRun[0]).toBe(w.cost!.perRun);
    expect(row.cost.perHour[0]).toBe(w.cost!.perHour);
    expect(row.cost.per1000Jobs[0]).toBe(w.cost!.per1000Jobs);
  });

  test('an active worker (workersMin 1) at given prices: billed the whole run at the active price; no flex worker starts', () => {
    const f = variant('active', (s) => {
      s.endpoint.workersMin = 1;
    });
    const out = join(dir, 'active');
    const [r] = cli(['run', f, '--price-flex', '0.002', '--price-active', '0.001', '--out', out]) as [CliResult];
    expect(r.status, r.stderr).toBe(0);
    const rep = reportOf(out);
    const w = rep.workers!;
    expect(w.started).toBe(1);
    expect(w.billedSeconds).toEqual({ active: Math.ceil(rep.elapsedMs / 1000), flex: 0 });
    expect(w.cost!.prices).toEqual({ flexPerSec: 0.002, activePerSec: 0.001 });
    expect(w.cost!.perRun).toBeCloseTo(Math.ceil(rep.elapsedMs / 1000) * 0.001, 6);
  });

  test("no price: billed seconds without cost; the scenario's plan.gpu is the default price", () => {
    const none = join(dir, 'none');
    const f = variant('plan-gpu', (s) => {
      s.plan = { gpu: 'a100' };
    });
    const out = join(dir, 'plan-gpu');
    const [r1, r2, cmp] = cli(['run', FILE, '--out', none], ['run', f, '--out', out], ['compare', none, out, '--out', join(dir, 'compare')]) as [
      CliResult,
      CliResult,
      CliResult,
    ];
    expect(r1.status).toBe(0);
    const w = reportOf(none).workers!;
    expect(w.billedSeconds.flex).toBe(2 * Math.ceil((jobDurationMs + idleTimeoutMs) / 1000));
    expect(w.cost).toBeUndefined();
    expect(readFileSync(join(none, 'report.md'), 'utf8')).toContain('| cost | no prices');

    expect(r2.status).toBe(0);
    const priced = reportOf(out).workers!;
    expect(priced.cost!.prices).toEqual({ ...PRICE_BOOK_2026.gpus.A100, gpu: 'A100', asOf: '2026-05-13', priceBook: '2026' });

    // compare shows both runs' billed seconds and the cost per 1 000 jobs where there is one.
    expect(cmp.status, cmp.stderr).toBe(0);
    const md = readFileSync(join(dir, 'compare', 'compare.md'), 'utf8');
    expect(md).toContain(`| billed worker-seconds | ${w.billedSeconds.flex} | ${priced.billedSeconds.flex} |`);
    expect(md).toContain(`| cost per 1 000 jobs ($) | – | ${priced.cost!.per1000Jobs!.toFixed(2)} |`);
  });

  test('bad prices exit 2 naming the flag (or the file and field) and what it takes', () => {
    const f = variant('bad-plan-gpu', (s) => {
      s.plan = { gpu: 'RTX-1' };
    });
    const [gpu, half, sc, remote] = cli(
      ['run', FILE, '--gpu', 'RTX-1', '--out', join(dir, 'bad')],
      ['run', FILE, '--price-flex', '0.001', '--out', join(dir, 'bad')],
      ['run', f, '--out', join(dir, 'bad')],
      ['run', FILE, '--gpu', 'A100', '--target', 'http://127.0.0.1:9/v2'],
    ) as [CliResult, CliResult, CliResult, CliResult];
    expect(gpu.status).toBe(2);
    expect(gpu.stderr).toContain('--gpu: unknown GPU "RTX-1"');
    for (const name of Object.keys(PRICE_BOOK_2026.gpus)) expect(gpu.stderr).toContain(name);

    expect(half.status).toBe(2);
    expect(half.stderr).toContain('--price-active: give both --price-flex and --price-active, or --gpu NAME');

    expect(sc.status).toBe(2);
    expect(sc.stderr).toContain(`${f}: plan.gpu: unknown GPU "RTX-1"`);

    expect(remote.status).toBe(2);
    expect(remote.stderr).toContain('--gpu: only without --target');
  });
});
