/**
 * Today's RunPod bill (2026), through the CLI a user runs: the 2026 price book (one per-second
 * price per GPU class for flex and active workers, since 2026-05-13), the earlier book by name
 * (--price-book 2025, plan.priceBook), and the billing rule (initializing unbilled unless
 * endpoint.billing.initializing; throttled and unhealthy never; each worker rounded up to the
 * second, idle timeout included). The scenario: one job on a cold endpoint (coldStartMs 10 s, job
 * 2 s, idle timeout 5 s, QUEUE_DELAY, workersMin 0): its one worker initializes 10 s, runs 2 s
 * and idles 5 s.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { stringify } from 'yaml';
import { PRICE_BOOK_2025, PRICE_BOOK_2026 } from '../../src/report/prices.js';
import type { RunResult } from '../../src/report/run-result.js';
import { cliBatch, type CliResult } from '../helpers/cli-batch.js';
import { planJson } from '../plan/plan-cli.js';

const dir = mkdtempSync(join(tmpdir(), 'loadlab-bill-2026-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The cold endpoint with one job, changed by `change`, as a file. */
function scenario(name: string, change: (s: Record<string, any>) => void = () => {}): string {
  const s: Record<string, any> = {
    name: `bill-${name}`,
    seed: 1,
    durationMs: 30_000,
    drainMs: 30_000,
    endpoint: {
      id: 'cold',
      workersMin: 0,
      workersMax: 1,
      coldStartMs: 10_000,
      jobDurationMs: 2000,
      idleTimeoutMs: 5000,
      scaler: { type: 'QUEUE_DELAY', value: 1 },
    },
    traffic: [
      {
        name: 'one-job',
        arrival: { process: 'replay', timestampsMs: [0] },
        client: { behaviour: 'run-poll', poll: { baseMs: 1000, factor: 1, maxMs: 1000, jitter: 0 } },
      },
    ],
    slo: ['jobs_completed >= 1'],
  };
  change(s);
  const f = join(dir, `${name}.yaml`);
  writeFileSync(f, stringify(s));
  return f;
}

const cli = (...lines: string[][]): CliResult[] => cliBatch(lines.map((args) => ({ args })));
const reportOf = (out: string): RunResult => JSON.parse(readFileSync(join(out, 'report.json'), 'utf8'));
const ok = (r: CliResult) => expect(r.status, r.stderr).toBe(0);

const COLD = scenario('cold');
const COLD_BILLED_INIT = scenario('cold-init', (s) => {
  s.endpoint.billing = { initializing: true };
});

describe('the 2026 price book', () => {
  test('RunPod pricing page, since 2026-05-13: one per-second price per GPU class, the same for flex and active workers', () => {
    const perSec: Record<string, number> = {
      '16GB': 0.00016,
      A4000: 0.00016,
      L4: 0.00019,
      A5000: 0.00019,
      '3090': 0.00019,
      '4090-PRO': 0.00031,
      A6000: 0.00034,
      A40: 0.00034,
      L40: 0.00053,
      L40S: 0.00053,
      '6000-ADA': 0.00053,
      A100: 0.00076,
      '6000-PRO': 0.00111,
      'H100-PRO': 0.00116,
      H200: 0.00155,
      B200: 0.0024,
    };
    for (const [gpu, p] of Object.entries(perSec)) expect(PRICE_BOOK_2026.gpus[gpu], gpu).toEqual({ flexPerSec: p, activePerSec: p });
    for (const p of Object.values(PRICE_BOOK_2026.gpus)) expect(p.flexPerSec).toBe(p.activePerSec);
    expect(PRICE_BOOK_2026.asOf).toBe('2026-05-13');
  });

  test('RunPod pricing page, until 2026-05-13: the earlier book (--price-book 2025) keeps active workers cheaper, H100-PRO 0.00116 / 0.00093', () => {
    expect(PRICE_BOOK_2025.gpus['H100-PRO']).toEqual({ flexPerSec: 0.00116, activePerSec: 0.00093 });
    // The names loadlab had before the 2026 book are in both books.
    for (const gpu of Object.keys(PRICE_BOOK_2025.gpus)) expect(PRICE_BOOK_2026.gpus[gpu], gpu).toBeDefined();
  });
});

describe('loadlab run and plan: the 2026 bill of one job on a cold endpoint', () => {
  test('RunPod workers page, since 2026-06-29: initializing is not billed — 2 s running + 5 s idle = 7 s, $0.00812 at H100-PRO; plan bills the same; report.json, report.md and stdout name the rule and the book', () => {
    const out = join(dir, 'cold');
    const planOut = join(dir, 'cold-plan');
    const [r, p] = cli(
      ['run', COLD, '--gpu', 'H100-PRO', '--out', out],
      ['plan', COLD, '--workers-max', '1..1', '--seeds', '1', '--gpu', 'H100-PRO', '--out', planOut],
    ) as [CliResult, CliResult];
    ok(r);
    const w = reportOf(out).workers!;
    expect(w.started).toBe(1);
    expect(w.secondsByState.initializing).toBe(10);
    expect(w.billedSeconds).toEqual({ flex: 7, active: 0 });
    expect(w.cost!.perRun).toBe(0.00812);
    expect(w.cost!.prices).toEqual({ flexPerSec: 0.00116, activePerSec: 0.00116, gpu: 'H100-PRO', asOf: '2026-05-13', priceBook: '2026' });
    expect(w.billing).toEqual({ initializing: false, billedStates: ['running', 'idle'], priceBook: '2026', asOf: '2026-05-13', gpu: 'H100-PRO' });
    const md = readFileSync(join(out, 'report.md'), 'utf8');
    expect(md).toContain('initializing, throttled and unhealthy time not billed (endpoint.billing.initializing: false)');
    expect(md).toContain('| prices per second flex / active | $0.00116 / $0.00116 (H100-PRO, price book 2026: 2026-05-13) |');
    expect(md).toContain('| cost per run | $0.0081 |');
    expect(readFileSync(join(out, 'report.html'), 'utf8')).toContain('price book 2026: 2026-05-13');
    expect(r.stdout).toContain('billed 7 s flex, 0 s active; cost $0.0081');
    expect(r.stdout).toContain('H100-PRO, price book 2026');

    ok(p);
    const plan = JSON.parse(planJson(planOut));
    expect(plan.rows[0].workers.flexSeconds).toEqual([7]);
    expect(plan.rows[0].cost.perRun).toEqual([0.00812]);
    expect(plan.prices).toEqual({ flexPerSec: 0.00116, activePerSec: 0.00116, gpu: 'H100-PRO', priceBook: '2026', asOf: '2026-05-13' });
    expect(plan.billing).toEqual({ initializing: false, billedStates: ['running', 'idle'], priceBook: '2026', asOf: '2026-05-13', gpu: 'H100-PRO' });
    const planMd = readFileSync(join(planOut, 'plan.md'), 'utf8');
    expect(planMd).toContain('H100-PRO, price book 2026: 2026-05-13');
    expect(planMd).toContain('initializing, throttled and unhealthy time not billed');
    expect(readFileSync(join(planOut, 'plan.html'), 'utf8')).toContain('H100-PRO, price book 2026: 2026-05-13');
    expect(p.stdout).toContain('H100-PRO, price book 2026: 2026-05-13; initializing not billed');
  });

  test('RunPod pricing page ("start time is billed"): endpoint.billing.initializing: true bills the 10 s cold start too — 17 s, in run and plan', () => {
    const out = join(dir, 'cold-init');
    const planOut = join(dir, 'cold-init-plan');
    const [r, p] = cli(
      ['run', COLD_BILLED_INIT, '--gpu', 'H100-PRO', '--out', out],
      ['plan', COLD_BILLED_INIT, '--workers-max', '1..1', '--seeds', '1', '--gpu', 'H100-PRO', '--out', planOut],
    ) as [CliResult, CliResult];
    ok(r);
    const w = reportOf(out).workers!;
    expect(w.billedSeconds).toEqual({ flex: 17, active: 0 });
    expect(w.cost!.perRun).toBe(0.01972);
    expect(w.billing).toMatchObject({ initializing: true, billedStates: ['running', 'idle', 'initializing'] });
    expect(readFileSync(join(out, 'report.md'), 'utf8')).toContain('initializing time included (endpoint.billing.initializing: true)');
    expect(r.stdout).toContain('initializing billed');
    ok(p);
    const plan = JSON.parse(planJson(planOut));
    expect(plan.rows[0].workers.flexSeconds).toEqual([17]);
    expect(plan.billing.initializing).toBe(true);
  });

  test('RunPod pricing page, since 2026-05-13: flex and active H100-PRO workers cost the same; --gpu L4 and --gpu L40S bill $0.00019 and $0.00053 a second', () => {
    const active = scenario('active', (s) => {
      s.endpoint.workersMin = 1;
    });
    const [h, l4, l40s] = cli(
      ['run', active, '--gpu', 'h100-pro', '--out', join(dir, 'active')],
      ['run', COLD, '--gpu', 'L4', '--out', join(dir, 'l4')],
      ['run', COLD, '--gpu', 'l40s', '--out', join(dir, 'l40s')],
    ) as [CliResult, CliResult, CliResult];
    ok(h);
    const a = reportOf(join(dir, 'active'));
    const w = a.workers!;
    expect(w.billedSeconds.flex).toBe(0);
    expect(w.cost!.prices.activePerSec).toBe(0.00116);
    expect(w.cost!.prices.flexPerSec).toBe(0.00116);
    expect(w.cost!.perRun).toBeCloseTo(w.billedSeconds.active * 0.00116, 9);
    ok(l4);
    ok(l40s);
    const c4 = reportOf(join(dir, 'l4')).workers!.cost!;
    const c40 = reportOf(join(dir, 'l40s')).workers!.cost!;
    expect(c4.prices).toMatchObject({ flexPerSec: 0.00019, activePerSec: 0.00019, gpu: 'L4' });
    expect(c4.perRun).toBeCloseTo(7 * 0.00019, 9);
    expect(c40.prices).toMatchObject({ flexPerSec: 0.00053, activePerSec: 0.00053, gpu: 'L40S' });
    expect(c40.perRun).toBeCloseTo(7 * 0.00053, 9);
  });

  test('RunPod pricing page, until 2026-05-13: --price-book 2025 (or plan.priceBook: 2025) keeps H100-PRO at 0.00116 flex / 0.00093 active; --price-flex/--price-active still override the book', () => {
    const inFile = scenario('book-2025', (s) => {
      s.plan = { gpu: 'H100-PRO', priceBook: '2025' };
    });
    const [flag, file, over] = cli(
      ['run', COLD, '--gpu', 'H100-PRO', '--price-book', '2025', '--out', join(dir, 'b2025')],
      ['run', inFile, '--out', join(dir, 'b2025-file')],
      ['run', COLD, '--gpu', 'H100-PRO', '--price-flex', '0.001', '--out', join(dir, 'over')],
    ) as [CliResult, CliResult, CliResult];
    for (const [r, out] of [
      [flag, 'b2025'],
      [file, 'b2025-file'],
    ] as const) {
      ok(r);
      const w = reportOf(join(dir, out)).workers!;
      expect(w.cost!.prices).toEqual({ flexPerSec: 0.00116, activePerSec: 0.00093, gpu: 'H100-PRO', priceBook: '2025', asOf: 'until 2026-05-12' });
      expect(w.billing!.priceBook).toBe('2025');
      // The book sets the prices, not the rule: initializing is still unbilled.
      expect(w.billedSeconds.flex).toBe(7);
    }
    ok(over);
    const o = reportOf(join(dir, 'over')).workers!;
    expect(o.cost!.prices).toEqual({ flexPerSec: 0.001, activePerSec: 0.00116 });
    expect(o.billing).toEqual({ initializing: false, billedStates: ['running', 'idle'] });
  });

  test('unknown --gpu, --price-book or plan.priceBook exit 2 listing the known ones; a price flag against --target (HTTP or lockstep) is refused: the target shows no workers', () => {
    const badBook = scenario('bad-book', (s) => {
      s.plan = { gpu: 'A100', priceBook: '1999' };
    });
    const [gpu, book, l4in2025, file, noGpu, remote, lockstep] = cli(
      ['run', COLD, '--gpu', 'RTX-1', '--out', join(dir, 'bad')],
      ['run', COLD, '--gpu', 'A100', '--price-book', '1999', '--out', join(dir, 'bad')],
      ['run', COLD, '--gpu', 'L4', '--price-book', '2025', '--out', join(dir, 'bad')],
      ['plan', badBook, '--out', join(dir, 'bad')],
      ['run', COLD, '--price-book', '2025', '--out', join(dir, 'bad')],
      ['run', COLD, '--price-book', '2025', '--target', 'http://127.0.0.1:9/v2'],
      ['run', COLD, '--gpu', 'L4', '--lockstep', '--target', 'http://127.0.0.1:9/v2'],
    ) as CliResult[];
    expect(gpu!.status).toBe(2);
    expect(gpu!.stderr).toContain('--gpu: unknown GPU "RTX-1" in price book 2026; known: ');
    for (const name of Object.keys(PRICE_BOOK_2026.gpus)) expect(gpu!.stderr).toContain(name);
    expect(book!.status).toBe(2);
    expect(book!.stderr).toContain('--price-book: unknown price book "1999"; known: 2026 (2026-05-13), 2025 (until 2026-05-12)');
    expect(l4in2025!.status).toBe(2);
    expect(l4in2025!.stderr).toContain('--gpu: unknown GPU "L4" in price book 2025; known: H100-PRO, A100, 4090-PRO, H200, B200');
    expect(file!.status).toBe(2);
    expect(file!.stderr).toContain(`${badBook}: plan.priceBook: unknown price book "1999"`);
    expect(noGpu!.status).toBe(2);
    expect(noGpu!.stderr).toContain('--price-book: prices a GPU: give --gpu NAME too');
    expect(remote!.status).toBe(2);
    expect(remote!.stderr).toContain('--price-book: only without --target');
    expect(lockstep!.status).toBe(2);
    expect(lockstep!.stderr).toContain('--gpu: only without --target');
  });
});
