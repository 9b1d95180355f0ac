/**
 * scenarios/capacity-plan.yaml through `loadlab plan`, shortened (its first virtual hour, a few
 * workersMax, two seeds) so it runs in seconds: a recommendation, cost with --gpu, and plan.md
 * naming each way the scenario departs from Erlang C's M/M/c (the whole day: docs/plan.md).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { parse, stringify } from 'yaml';
import { plan, planJson, planMd } from './plan-cli.js';

const dir = mkdtempSync(join(tmpdir(), 'loadlab-plan-example-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test('capacity-plan.yaml, its first hour: a recommendation with its cost, and where it departs from M/M/c', () => {
  const sc = parse(readFileSync('scenarios/capacity-plan.yaml', 'utf8'));
  delete sc.$schema;
  sc.durationMs = 3_600_000;
  const file = join(dir, 'capacity-plan-hour.yaml');
  writeFileSync(file, stringify(sc));
  const out = join(dir, 'plan');
  const r = plan([file, '--workers-max', '1..8', '--seeds', '2', '--gpu', '4090-PRO', '--jobs', '2', '--out', out]);
  expect(r.status, r.stderr).toBe(0);
  const p = JSON.parse(planJson(out));
  expect(p.slo).toEqual({ source: 'slo', exprs: sc.slo });
  const best = p.rows.find((row: { workersMax: number }) => row.workersMax === p.recommendation.workersMax);
  expect(best.meetsAll).toBe(true);
  expect(p.rows.filter((row: { workersMax: number; meetsAll: boolean }) => row.workersMax < best.workersMax && row.meetsAll)).toEqual([]);
  expect(p.recommendation.cost.perHour).toBeGreaterThan(0);
  const md = planMd(out);
  expect(md).toContain(`**Recommendation: workersMax ${best.workersMax}**`);
  for (const why of ['Cold starts:', 'Scaler lag:', 'Job times are lognormal', 'Arrivals are not a constant-rate Poisson stream (daily: diurnal)'])
    expect(md).toContain(why);
}, 180_000);

test('llm-chat.yaml on one seed: batching workers meet the TTFT and TPOT SLOs with far fewer workers than one request each', () => {
  const out = join(dir, 'plan-llm');
  const r = plan(['scenarios/llm-chat.yaml', '--seeds', '1', '--jobs', '2', '--out', out]);
  expect(r.status, r.stderr).toBe(0);
  const p = JSON.parse(planJson(out));
  expect(p.slo.exprs).toEqual(['ttft_p95_ms{flow=chat} < 1000', 'tpot_p95_ms{flow=chat} < 12']);
  const rows = p.rows as { workersMax: number; knobs: { workerConcurrency: number }; meetsAll: boolean }[];
  // One request per worker: up to 4 workers queue the chat (TTFT); batching 8 or more, two carry it.
  expect(rows.filter((row) => row.knobs.workerConcurrency === 1 && row.meetsAll)).toEqual([]);
  expect(p.recommendation.workersMax).toBe(2);
  expect(p.recommendation.knobs.workerConcurrency).toBeGreaterThanOrEqual(8);
  const md = planMd(out);
  expect(md).toContain('| workersMax \\ workerConcurrency | 1 | 4 | 8 | 16 |');
  expect(md).toContain('Erlang C does not model batching');
}, 180_000);
