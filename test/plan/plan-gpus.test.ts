/**
 * `loadlab plan` over lists of GPU types (`--grid gpus=…`, `plan.grid.gpus`), in this process:
 * each point bills its workers at their types' prices (the same worker-seconds cost in the ratio
 * of the prices: H100-PRO $0.00116/s, A100 $0.00076/s in the 2026 book), each point's engine
 * takes vLLM's defaults on its own list (256 sequences on an A100, 1024 on an H100-PRO), and a bad
 * list exits 2 naming the grid.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { planCommand } from '../../src/cli/commands/plan.js';
import type { PlanArgs } from '../../src/cli/commands/plan-flags.js';
import type { CliError } from '../../src/cli/exit-codes.js';
import { stdoutOf } from '../helpers/stdout-of.js';

const dir = mkdtempSync(join(tmpdir(), 'loadlab-plan-gpus-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A warm LLM endpoint (one active worker), a second of chat; `change` edits it. */
function scenario(name: string, change: (s: Record<string, any>) => void = () => {}): string {
  const s: Record<string, any> = {
    name,
    seed: 1,
    durationMs: 1000,
    drainMs: 10_000,
    endpoint: { id: 'llm', workersMin: 1, workersMax: 1, coldStartMs: 0, workerConcurrency: 4, llm: { engine: { decodeMs: 5 }, outputTokens: 5 } },
    traffic: [{ name: 'chat', arrival: { process: 'constant', ratePerSec: 4 }, client: { behaviour: 'openai-chat', stream: true } }],
    slo: ['ttft_p95_ms{flow=chat} < 60000'],
  };
  change(s);
  const f = join(dir, `${name}.json`);
  writeFileSync(f, JSON.stringify(s));
  return f;
}

const planIn = async (a: Partial<PlanArgs> & { scenario: string }, out: string) => {
  const r = await stdoutOf(() => planCommand({ 'workers-max': '1', seeds: 1, jobs: 1, out, ...a }));
  return { ...r, plan: JSON.parse(readFileSync(join(out, 'plan.json'), 'utf8')), md: readFileSync(join(out, 'plan.md'), 'utf8') };
};

/** The CliError a plan throws (its exit code and message). */
async function refusal(a: Partial<PlanArgs> & { scenario: string }): Promise<CliError> {
  try {
    await stdoutOf(() => planCommand({ 'workers-max': '1', seeds: 1, jobs: 1, out: join(dir, 'refused'), ...a }));
  } catch (e) {
    return e as CliError;
  }
  throw new Error('the plan ran');
}

describe('plan --grid gpus', () => {
  test('the same engine and worker-seconds on H100-PRO and on A100: costs in the ratio of the prices, 1160 : 760', async () => {
    // Both limits given: the engine is the same on both types, so the runs are the same.
    const file = scenario('same-engine', (s) => Object.assign(s.endpoint.llm.engine, { maxNumSeqs: 64, maxNumBatchedTokens: 4096 }));
    const { code, plan, out, md } = await planIn({ scenario: file, grid: ['gpus=H100-PRO,A100'] }, join(dir, 'ratio'));
    expect(code).toBe(0);
    expect(plan.sweep.grid.map((g: { knobs: unknown }) => g.knobs)).toEqual([{ gpus: ['H100-PRO'] }, { gpus: ['A100'] }]);
    const [h100, a100] = plan.rows;
    expect(h100.workers.activeSeconds).toEqual(a100.workers.activeSeconds);
    expect(h100.workers.activeSeconds[0]).toBeGreaterThan(0);
    expect(h100.cost.perRun[0] / a100.cost.perRun[0]).toBeCloseTo(1160 / 760, 9);
    expect(h100.cost.perRun[0]).toBeCloseTo(h100.workers.activeSeconds[0] * 0.00116, 9);
    // By type: the one type of each point, its cost the row's.
    expect(a100.workers.byGpu).toEqual([
      { gpu: 'A100', started: [1], activeSeconds: a100.workers.activeSeconds, flexSeconds: [0], costPerRun: a100.cost.perRun },
    ]);
    expect(plan.prices.byGpu).toEqual({ 'H100-PRO': { flexPerSec: 0.00116, activePerSec: 0.00116 }, A100: { flexPerSec: 0.00076, activePerSec: 0.00076 } });
    // The cheaper list is recommended, and named.
    expect(plan.recommendation.knobs).toEqual({ gpus: ['A100'] });
    expect(out).toMatch(/^RECOMMENDATION: workersMax 1 with gpus=A100\n/);
    expect(out).toContain('H100-PRO, A100 each at its price, price book 2026: 2026-05-13');
    expect(md).toContain('| 1 ← | gpus=A100 |');
    expect(md).toContain('## Workers and cost by GPU type');
    expect(md).toContain("each worker at its GPU type's price: H100-PRO $0.00116/s; A100 $0.00076/s; price book 2026: 2026-05-13");
  });

  test('a list of two with room for one H100-PRO: two workers, one on each type, each priced at its own', async () => {
    const file = scenario('fallback', (s) => {
      Object.assign(s.endpoint, { workersMin: 2, workersMax: 2, gpus: ['H100-PRO', 'A100'], hostCapacity: { 'H100-PRO': 1 } });
      s.plan = { grid: { gpus: [['H100-PRO', 'A100']] } };
    });
    const { code, plan } = await planIn({ scenario: file, 'workers-max': '2' }, join(dir, 'fallback'));
    expect(code).toBe(0);
    const [row] = plan.rows;
    expect(row.knobs).toEqual({ gpus: ['H100-PRO', 'A100'] });
    const [h, a] = row.workers.byGpu;
    expect([h.gpu, h.started[0], a.gpu, a.started[0]]).toEqual(['H100-PRO', 1, 'A100', 1]);
    expect(h.costPerRun[0]).toBeCloseTo(h.activeSeconds[0] * 0.00116, 9);
    expect(a.costPerRun[0]).toBeCloseTo(a.activeSeconds[0] * 0.00076, 9);
    expect(row.cost.perRun[0]).toBeCloseTo(h.costPerRun[0] + a.costPerRun[0], 6);
  });

  test("scenarios/gpu-fallback.yaml: workersMax 3 on H100-PRO+A100; each row's seconds and cost are the sums of its types'", async () => {
    const { code, plan } = await planIn({ scenario: 'scenarios/gpu-fallback.yaml', 'workers-max': '2..4' }, join(dir, 'example'));
    expect(code).toBe(0);
    expect([plan.recommendation.workersMax, plan.recommendation.knobs]).toEqual([3, { gpus: ['H100-PRO', 'A100'] }]);
    const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
    for (const r of plan.rows) {
      const g: { flexSeconds: number[]; activeSeconds: number[]; costPerRun: number[]; started: number[]; gpu: string }[] = r.workers.byGpu;
      expect(sum(g.map((t) => t.flexSeconds[0]!))).toBe(r.workers.flexSeconds[0]);
      expect(sum(g.map((t) => t.activeSeconds[0]!))).toBeCloseTo(r.workers.activeSeconds[0], 6);
      expect(sum(g.map((t) => t.costPerRun[0]!))).toBeCloseTo(r.cost.perRun[0], 5);
    }
    // H100-PRO alone: room for one worker, whatever workersMax.
    const h100 = plan.rows.filter((r: { knobs: { gpus: string[] } }) => r.knobs.gpus.join() === 'H100-PRO');
    expect(h100.map((r: { workers: { byGpu: { started: number[] }[] } }) => r.workers.byGpu[0]!.started[0])).toEqual([1, 1, 1]);
  });

  test("each point's engine takes vLLM's defaults on its list: 300 streams at once wait in the engine on an A100 (256 sequences), not on an H100-PRO (1024)", async () => {
    // The scenario lists H100-PRO, so its engine was loaded with 1024: the A100 point must not keep it.
    const file = scenario('defaults', (s) => {
      Object.assign(s.endpoint, { workerConcurrency: 1024, gpus: ['H100-PRO'] });
      s.traffic = [{ name: 'chat', arrival: { process: 'closed', users: 300 }, client: { behaviour: 'openai-chat', stream: true } }];
    });
    const { code, plan } = await planIn({ scenario: file, grid: ['gpus=H100-PRO,A100'] }, join(dir, 'defaults'));
    expect(code).toBe(0);
    const [h100, a100] = plan.rows.map((r: { measured: { engineWaitingShare: number[] } }) => r.measured.engineWaitingShare[0]);
    expect(h100).toBe(0);
    expect(a100).toBeGreaterThan(0.1);
  });

  test('a bad list exits 2 naming the grid: over 3 types, a type twice, an unknown type, an empty type; --gpu beside it', async () => {
    const file = scenario('bad');
    const cases: [Partial<PlanArgs>, RegExp][] = [
      [{ grid: ['gpus=H100-PRO+A100+L4+B200'] }, /--grid: gpus: Too big: expected array to have <=3 items \(in gpus=H100-PRO\+A100\+L4\+B200\)/],
      [{ grid: ['gpus=A100+A100'] }, /--grid: gpus\.1: "A100" is listed twice \(in gpus=A100\+A100\)/],
      [{ grid: ['gpus=H100-PRO,H100-PRO+T4'] }, /--grid: gpus: unknown GPU type "T4" \(in gpus=H100-PRO\+T4\); known: 16GB, /],
      [{ grid: ['gpus=H100-PRO+'] }, /--grid "gpus=H100-PRO\+": gpus value "H100-PRO\+" has an empty GPU type/],
      [{ grid: ['gpus=A100'], gpu: 'A100' }, /--gpu: not with --grid gpus \(A100\)/],
    ];
    for (const [a, message] of cases) {
      const e = await refusal({ scenario: file, ...a });
      expect(e.exitCode, e.message).toBe(2);
      expect(e.message).toMatch(message);
    }
    const inFile = scenario('bad-file', (s) => (s.plan = { grid: { gpus: [['A100'], ['L4', 'L4']] } }));
    const e = await refusal({ scenario: inFile });
    expect(e.exitCode).toBe(2);
    expect(e.message).toMatch(/bad-file\.json: plan\.grid: gpus\.1: "L4" is listed twice \(in gpus=L4\+L4\)/);
  });
});
