/**
 * The cost model through `loadlab plan`, on test/fixtures/plan-cost.yaml, whose worker lifetimes
 * follow from its constants: each of two jobs wakes a flex worker scaler.value s after it arrives,
 * which starts cold, runs the job, and stops idleTimeoutMs later (billed past the run's end).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { loadScenarioFile } from '../../src/load/scenario/loader.js';
import { PRICE_BOOK_2026 } from '../../src/report/prices.js';
import { plan, planJson } from './plan-cli.js';

const dir = mkdtempSync(join(tmpdir(), 'loadlab-plan-cost-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const FILE = 'test/fixtures/plan-cost.yaml';

function endpoint() {
  const l = loadScenarioFile(FILE);
  if (!l.ok) throw new Error(JSON.stringify(l.issues));
  return l.scenario.endpoint;
}

describe('cost of a plan row', () => {
  test('flex workers: per second, rounded up, from start to stop (idle tail included; the cold start not, by default)', () => {
    const e = endpoint();
    const out = join(dir, 'flex');
    const r = plan([FILE, '--workers-max', '1..1', '--seeds', '1', '--price-flex', '0.001', '--price-active', '0.0005', '--out', out]);
    expect(r.status, r.stderr).toBe(0);
    const row = JSON.parse(planJson(out)).rows[0];
    const lifeMs = (e.jobDurationMs as number) + e.idleTimeoutMs;
    const perWorker = Math.ceil(lifeMs / 1000);
    expect(row.workers.started).toEqual([2]);
    expect(row.workers.activeSeconds).toEqual([0]);
    expect(row.workers.flexSeconds).toEqual([2 * perWorker]);
    expect(row.cost.perRun[0]).toBeCloseTo(2 * perWorker * 0.001, 9);
    expect(row.cost.perHour[0]).toBeCloseTo((row.cost.perRun[0] * 3_600_000) / row.measured.elapsedMs[0], 6);
    expect(row.cost.per1000Jobs[0]).toBeCloseTo((row.cost.perRun[0] * 1000) / 2, 6);
    expect(r.stdout).toMatch(/cost: \$[\d.]+ per hour, \$[\d.]+ per 1000 jobs/);
  });

  test('an active worker (workersMin 1, --gpu): billed for the whole run at the active price; no flex worker starts', () => {
    const out = join(dir, 'active');
    const r = plan([FILE, '--workers-max', '1..1', '--workers-min', '1', '--seeds', '1', '--gpu', 'a100', '--out', out]);
    expect(r.status, r.stderr).toBe(0);
    const p = JSON.parse(planJson(out));
    const row = p.rows[0];
    expect(p.prices).toEqual({ ...PRICE_BOOK_2026.gpus.A100, gpu: 'A100', priceBook: '2026', asOf: '2026-05-13' });
    expect(row.workers.started).toEqual([1]);
    expect(row.workers.flexSeconds).toEqual([0]);
    expect(row.workers.activeSeconds).toEqual([Math.ceil(row.measured.elapsedMs[0] / 1000)]);
    expect(row.cost.perRun[0]).toBeCloseTo(row.workers.activeSeconds[0] * PRICE_BOOK_2026.gpus.A100!.activePerSec, 9);
  });
});
