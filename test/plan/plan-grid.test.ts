/**
 * `loadlab plan --grid`: every combination of the knobs is a line along workersMax; the
 * recommendation is the cheapest point meeting every SLO; the Pareto front holds the rows no
 * other row beats on cost and every SLO; plan.json is the same with one thread and two; a grid
 * key that is not an endpoint knob, or a bad value, exits 2 naming it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import type { CliResult } from '../helpers/cli-batch.js';
import { planJson, planMd, plans } from './plan-cli.js';

const dir = mkdtempSync(join(tmpdir(), 'loadlab-plan-grid-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const FILE = 'test/fixtures/plan-small.yaml';

interface Row {
  workersMax: number;
  knobs: Record<string, unknown>;
  meetsAll: boolean;
  cost: { perHour: number[] };
  slo: { values: number[] }[];
}
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const key = (r: { workersMax: number; knobs: Record<string, unknown> }) => JSON.stringify([r.workersMax, r.knobs]);

describe('loadlab plan --grid', () => {
  test('the cheapest point meeting every SLO, the Pareto front, the same plan.json whatever --jobs', () => {
    const args = [
      FILE,
      '--workers-max',
      '2..5',
      '--seeds',
      '2',
      '--grid',
      'workersMin=0,1',
      '--grid',
      'scaler.type=QUEUE_DELAY,REQUEST_COUNT',
      '--gpu',
      'A100',
      '--slo',
      'queue_delay_p95_ms < 3000',
    ];
    const [one, two] = plans([...args, '--jobs', '1', '--out', join(dir, 'one')], [...args, '--jobs', '2', '--out', join(dir, 'two')]) as [
      CliResult,
      CliResult,
    ];
    expect(one.status, one.stderr).toBe(0);
    expect(two.status, two.stderr).toBe(0);
    expect(planJson(join(dir, 'two'))).toBe(planJson(join(dir, 'one')));
    const p = JSON.parse(planJson(join(dir, 'one')));
    const rows: Row[] = p.rows;
    expect(p.sweep.grid.map((g: { knobs: unknown }) => g.knobs)).toEqual([
      { workersMin: 0, 'scaler.type': 'QUEUE_DELAY' },
      { workersMin: 0, 'scaler.type': 'REQUEST_COUNT' },
      { workersMin: 1, 'scaler.type': 'QUEUE_DELAY' },
      { workersMin: 1, 'scaler.type': 'REQUEST_COUNT' },
    ]);
    const meeting = rows.filter((r) => r.meetsAll);
    expect(meeting.length).toBeGreaterThan(0);
    const cheapest = Math.min(...meeting.map((r) => mean(r.cost.perHour)));
    const rec = rows.find((r) => r.workersMax === p.recommendation.workersMax && JSON.stringify(r.knobs) === JSON.stringify(p.recommendation.knobs))!;
    expect(rec.meetsAll).toBe(true);
    expect(mean(rec.cost.perHour)).toBe(cheapest);
    expect(p.recommendation.cheapestBy).toBe('cost per hour');
    // The front: no row is at most as costly and at most as slow on the SLO, and better on one.
    const objs = (r: Row) => [mean(r.cost.perHour), Math.max(...r.slo[0]!.values)];
    const beaten = (r: Row) => rows.some((o) => objs(o).every((v, i) => v <= objs(r)[i]!) && objs(o).some((v, i) => v < objs(r)[i]!));
    const front = new Set(p.paretoFront.map(key));
    for (const r of rows) expect(front.has(key(r)), key(r)).toBe(!beaten(r));
    expect(front.has(key(rec))).toBe(true);
    expect(one.stdout).toMatch(/^RECOMMENDATION: workersMax \d+ with workersMin=\d, scaler\.type=\w+\n/);
    expect(planMd(join(dir, 'one'))).toContain('## Cost against the SLOs: the Pareto front');
  });

  test('a key that is not an endpoint knob, or a bad value, exits 2 naming it', () => {
    const cases: [string, RegExp][] = [
      ['workersMax=1,2', /--grid "workersMax=1,2": "workersMax" is not an endpoint knob a plan can sweep.*workersMax is swept by --workers-max/],
      ['idleTimout=1000', /--grid "idleTimout=1000": "idleTimout" is not an endpoint knob a plan can sweep; did you mean "idleTimeoutMs"\?/],
      ['scaler.type=FAST', /--grid: scaler\.type: .*\(in scaler\.type=FAST\)/],
      ['idleTimeoutMs=soon', /--grid "idleTimeoutMs=soon": idleTimeoutMs value "soon" is not a number >= 0/],
      ['workerConcurrency=4,0', /--grid "workerConcurrency=4,0": workerConcurrency value "0" is not a whole number from 1 to 1024/],
    ];
    const rs = plans(...cases.map(([grid]) => [FILE, '--grid', grid, '--out', join(dir, 'bad')]));
    cases.forEach(([grid, message], i) => {
      expect(rs[i]!.status, `${grid}\n${rs[i]!.stderr}`).toBe(2);
      expect(rs[i]!.stderr).toMatch(message);
    });
  });
});
