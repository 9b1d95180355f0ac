/**
 * A scenario's `plan:` section gives `loadlab plan` its defaults (range, seeds, GPU, grid); flags
 * override each; a bad value exits 2 naming the file and the field.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { parse, stringify } from 'yaml';
import { PRICE_BOOK_2026 } from '../../src/report/prices.js';
import type { CliResult } from '../helpers/cli-batch.js';
import { planJson, plans } from './plan-cli.js';

const dir = mkdtempSync(join(tmpdir(), 'loadlab-plan-section-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** test/fixtures/plan-small.yaml with a plan: section. */
function scenario(name: string, section: unknown): string {
  const sc = parse(readFileSync('test/fixtures/plan-small.yaml', 'utf8'));
  const file = join(dir, `${name}.yaml`);
  writeFileSync(file, stringify({ ...sc, plan: section }));
  return file;
}

describe("the scenario's plan: section", () => {
  test('range, seeds, GPU and grid from the scenario; flags override them', () => {
    const file = scenario('section', { workersMax: '2..3', seeds: 2, gpu: 'h200', grid: { idleTimeoutMs: [1000, 5000] } });
    const [r, o] = plans(
      [file, '--exhaustive', '--out', join(dir, 'a')],
      [file, '--workers-max', '4', '--seeds', '1', '--gpu', 'A100', '--grid', 'workersMin=1', '--out', join(dir, 'b')],
    ) as [CliResult, CliResult];
    expect(r.status, r.stderr).toBe(0);
    const p = JSON.parse(planJson(join(dir, 'a')));
    expect(p.sweep.workersMax).toEqual({ from: 2, to: 3 });
    expect(p.sweep.seeds).toEqual([3, 4]);
    expect(p.prices).toEqual({ ...PRICE_BOOK_2026.gpus.H200, gpu: 'H200', priceBook: '2026', asOf: '2026-05-13' });
    expect(p.sweep.grid.map((g: { knobs: unknown }) => g.knobs)).toEqual([{ idleTimeoutMs: 1000 }, { idleTimeoutMs: 5000 }]);
    expect(p.rows).toHaveLength(4);

    expect(o.status, o.stderr).toBe(0);
    const q = JSON.parse(planJson(join(dir, 'b')));
    expect(q.sweep.workersMax).toEqual({ from: 4, to: 4 });
    expect(q.sweep.seeds).toEqual([3]);
    expect(q.prices.gpu).toBe('A100');
    expect(q.sweep.grid.map((g: { knobs: unknown }) => g.knobs)).toEqual([{ workersMin: 1 }]);
  });

  test('a bad range, GPU or grid value exits 2 naming the file and the field', () => {
    const cases: [unknown, (file: string) => string][] = [
      [{ workersMax: '5..1' }, (f) => `${f}: plan.workersMax: "5..1": FROM (5) is above TO (1); write 1..5`],
      [{ gpu: 'Z80' }, (f) => `${f}: plan.gpu: unknown GPU "Z80"`],
      [{ grid: { 'scaler.type': ['FAST'] } }, (f) => `${f}: plan.grid.scaler.type.0:`],
      [{ grid: { workersMax: [1] } }, (f) => `${f}: plan.grid.workersMax: unknown key "workersMax"; did you mean "workersMin"?`],
      [{ grid: { workerConcurrency: [4, 2000] } }, (f) => `${f}: plan.grid.workerConcurrency.1:`],
    ];
    const files = cases.map(([section], i) => scenario(`bad-${i}`, section));
    const rs = plans(...files.map((file) => [file, '--out', join(dir, 'bad')]));
    cases.forEach(([, message], i) => {
      expect(rs[i]!.status, rs[i]!.stderr).toBe(2);
      expect(rs[i]!.stderr).toContain(message(files[i]!));
    });
  });
});
