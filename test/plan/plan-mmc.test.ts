/**
 * `loadlab plan` on a warm M/M/c queue (test/fixtures/plan-mmc.yaml, --workers-min max): the
 * recommendation for a mean-queue-delay SLO is Erlang C's smallest c, plan.json is byte-identical
 * with one thread and with two, and the sweep stops two points past the first that meets the SLO.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { serversForWait } from '../../src/plan/erlang-c.js';
import { loadScenarioFile } from '../../src/load/scenario/loader.js';
import type { CliResult } from '../helpers/cli-batch.js';
import { planJson, planMd, plans } from './plan-cli.js';

const dir = mkdtempSync(join(tmpdir(), 'loadlab-plan-mmc-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const FILE = 'test/fixtures/plan-mmc.yaml';

/** Erlang C's answer from the scenario's own figures (Poisson rate, exponential mean, the SLO's bound). */
function erlangAnswer(): number {
  const l = loadScenarioFile(FILE);
  if (!l.ok) throw new Error(JSON.stringify(l.issues));
  const sc = l.scenario;
  const arrival = sc.traffic[0]!.arrival;
  const job = sc.endpoint.jobDurationMs;
  if (arrival.process !== 'poisson' || typeof job === 'number' || job.dist !== 'exponential') throw new Error('not M/M/c');
  const bound = Number(/< (\d+)/.exec(sc.slo![0]!)![1]);
  return serversForWait(arrival.ratePerSec / 1000, 1 / job.meanMs, bound)!;
}

describe('loadlab plan on a warm M/M/c queue', () => {
  const args = [FILE, '--workers-max', '4..12', '--workers-min', 'max', '--seeds', '3'];
  test("recommends Erlang C's smallest c; --jobs 1 and --jobs 2 write the same plan.json; early stop two points past it", () => {
    const [one, two] = plans([...args, '--jobs', '1', '--out', join(dir, 'one')], [...args, '--jobs', '2', '--out', join(dir, 'two')]) as [
      CliResult,
      CliResult,
    ];
    expect(one.status, one.stderr).toBe(0);
    expect(two.status, two.stderr).toBe(0);
    expect(planJson(join(dir, 'two'))).toBe(planJson(join(dir, 'one')));

    const c = erlangAnswer();
    const p = JSON.parse(planJson(join(dir, 'one')));
    expect(p.recommendation.workersMax).toBe(c);
    expect(p.recommendation.erlangC.workersMax).toBe(c);
    expect(one.stdout).toContain(`RECOMMENDATION: workersMax ${c}\n`);
    // Every point below c fails on some seed; c and the two above it meet the SLO on all; nothing after.
    expect(p.rows.map((r: { workersMax: number }) => r.workersMax)).toEqual(Array.from({ length: c + 2 - 4 + 1 }, (_, i) => 4 + i));
    expect(p.rows.map((r: { meetsAll: boolean }) => r.meetsAll)).toEqual(p.rows.map((r: { workersMax: number }) => r.workersMax >= c));
    expect(p.sweep.stoppedAfter).toBe(c + 2);
    // Each SLO value per seed, and Erlang C's own figures beside each row.
    const row = p.rows.find((r: { workersMax: number }) => r.workersMax === c);
    expect(row.slo[0].values).toHaveLength(3);
    expect(row.erlangC.meanQueueDelayMs).toBeLessThan(160);
    expect(planMd(join(dir, 'one'))).toContain(`**Recommendation: workersMax ${c}**`);
    expect(planMd(join(dir, 'one'))).toContain(`Its smallest c for the queue-delay SLOs, ${c}, is the simulation's recommendation.`);
  }, 180_000);

  test('two jobs per worker (no engine): M/M/(workersMax × 2) job slots, and the simulation recommends ⌈Erlang C slots / 2⌉', () => {
    const file = join(dir, 'plan-mmc-2.yaml');
    writeFileSync(file, readFileSync(FILE, 'utf8').replace('  workersMax: 10\n', '  workersMax: 10\n  workerConcurrency: 2\n'));
    const [r] = plans([file, '--workers-max', '2..6', '--workers-min', 'max', '--seeds', '2', '--jobs', '1', '--out', join(dir, 'c2')]) as [CliResult];
    expect(r.status, r.stderr).toBe(0);
    const slots = erlangAnswer();
    const p = JSON.parse(planJson(join(dir, 'c2')));
    expect(p.recommendation.erlangC).toMatchObject({ workersMax: Math.ceil(slots / 2), workerConcurrency: 2, servers: slots });
    expect(p.recommendation.workersMax).toBe(Math.ceil(slots / 2));
    expect(p.rows.map((row: { erlangC: { servers: number } }) => row.erlangC.servers)).toEqual(p.rows.map((row: { workersMax: number }) => row.workersMax * 2));
    expect(r.stdout).toContain(`Erlang C (M/M/c) for the queue-delay SLOs: ${Math.ceil(slots / 2)} at workerConcurrency 2 (${slots} job slots)`);
    expect(planMd(join(dir, 'c2'))).toContain('the queue is exactly M/M/c with c = workersMax × workerConcurrency');
  }, 180_000);
});
