/**
 * `loadlab plan` on a scenario that replays a token trace (scenarios/llm-trace-plan.yaml, run on
 * a copy with its trace beside it and a small grid): a recommendation with its cost; every point
 * replays the same requests, which plan.json and plan.md name; two plans give byte-identical
 * plan.json; and the shards of the same plan merge into it byte for byte on a machine where the
 * trace file no longer is (the merge reads only the shards' figures).
 */
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { cliBatch } from '../helpers/cli-batch.js';
import { planJson, planMd, plans } from './plan-cli.js';

const dir = mkdtempSync(join(tmpdir(), 'loadlab-plan-trace-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
mkdirSync(join(dir, 'traces'));
copyFileSync('scenarios/llm-trace-plan.yaml', join(dir, 'llm-trace-plan.yaml'));
copyFileSync('scenarios/traces/azure2023_conv.csv', join(dir, 'traces', 'azure2023_conv.csv'));
const SCENARIO = join(dir, 'llm-trace-plan.yaml');
// Two points: the recommendation of the example's whole grid and the one beside it.
const SMALL = [SCENARIO, '--workers-max', '3', '--grid', 'workerConcurrency=16,32', '--jobs', '1'];
const REQUESTS = 1884;

describe('a plan from a token trace', () => {
  test('a recommendation with cost; every run replays the same requests; two plans, the same plan.json', () => {
    const [a, b] = plans([...SMALL, '--out', join(dir, 'a')], [...SMALL, '--out', join(dir, 'b')]);
    expect(a!.status, a!.stderr).toBe(0);
    expect(a!.stdout).toMatch(/^RECOMMENDATION: workersMax 3 with workerConcurrency=32$/m);
    expect(a!.stdout).toMatch(/^ {2}cost: \$\d+\.\d{4} per hour, \$\d+\.\d{4} per 1000 jobs \(L4, price book 2026/m);
    expect(b!.status, b!.stderr).toBe(0);
    expect(planJson(join(dir, 'b'))).toBe(planJson(join(dir, 'a')));

    const p = JSON.parse(planJson(join(dir, 'a')));
    expect(p.scenario.traces).toEqual([
      expect.objectContaining({ flow: 'chat', file: 'azure2023_conv.csv', format: 'azure', fromMs: 1_200_000, toMs: 1_500_000, speed: 4, requests: REQUESTS }),
    ]);
    expect(p.recommendation.cost.perHour).toBeGreaterThan(0);
    // The trace by its name only (the scenario's path is as given on the command line).
    expect(planJson(join(dir, 'a'))).not.toContain(join(dir, 'traces'));
    for (const r of p.rows) expect(r.measured.jobsAccepted).toEqual([REQUESTS]);
    const md = planMd(join(dir, 'a'));
    expect(md).toContain(
      `Flow chat replays the trace azure2023_conv.csv (azure, window [1200000, 1500000) ms of its clock, speed 4): the same ${REQUESTS} requests in every run`,
    );
    expect(md).toMatch(new RegExp(`\\| ${REQUESTS} of ${REQUESTS} \\|`));
  }, 120_000);

  test("its shards merge into the whole plan's plan.json without the trace file", () => {
    const shards = plans([...SMALL, '--shard', '0/2', '--out', join(dir, 's0')], [...SMALL, '--shard', '1/2', '--out', join(dir, 's1')]);
    for (const s of shards) expect(s.status, s.stderr).toBe(0);
    rmSync(join(dir, 'traces'), { recursive: true });
    const [m] = cliBatch([{ args: ['plan', 'merge', join(dir, 's1'), join(dir, 's0'), '--out', join(dir, 'merged')] }]);
    expect(m!.status, m!.stderr).toBe(0);
    expect(planJson(join(dir, 'merged'))).toBe(planJson(join(dir, 'a')));
    expect(planMd(join(dir, 'merged'))).toBe(planMd(join(dir, 'a')));
  }, 120_000);
});
