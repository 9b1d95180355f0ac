/**
 * `loadlab run --dry-run` says the engine's batch limits in force and where they came from: the
 * scenario's plan.gpu, or --gpu in its place, gives vLLM's defaults on that GPU to an engine
 * without them. `loadlab plan --gpu` simulates with them too (the scenario a shard's partial
 * plan.json keeps, as the sweep ran it).
 * The commands run in this process.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { planCommand } from '../../src/cli/commands/plan.js';
import { runCommand, type RunArgs } from '../../src/cli/commands/run.js';
import { stdoutOf } from '../helpers/stdout-of.js';

const dir = mkdtempSync(join(tmpdir(), 'loadlab-gpu-defaults-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function scenario(name: string, gpu: string | undefined, engine: Record<string, number> = {}): string {
  const f = join(dir, `${name}.json`);
  writeFileSync(
    f,
    JSON.stringify({
      name,
      durationMs: 2000,
      endpoint: { id: 'llm', workersMax: 1, llm: { engine: { decodeMs: 5, ...engine }, outputTokens: 4 } },
      traffic: [{ name: 'chat', arrival: { process: 'constant', ratePerSec: 2 }, client: { behaviour: 'openai-chat', stream: true } }],
      slo: ['ttft_p95_ms{flow=chat} < 10000'],
      ...(gpu === undefined ? {} : { plan: { gpu } }),
    }),
  );
  return f;
}

const dryRun = async (file: string, gpu?: string): Promise<string> => {
  const r = await stdoutOf(() => runCommand({ scenario: file, 'dry-run': true, ...(gpu ? { gpu } : {}) } as RunArgs));
  expect(r.code).toBe(0);
  return r.out.split('\n').find((l) => l.includes('engine limits'))!;
};

describe('run --dry-run: the engine limits in force', () => {
  test("plan.gpu H100-PRO: vLLM's defaults on it", async () => {
    expect(await dryRun(scenario('h100', 'H100-PRO'))).toBe("  engine limits: maxNumSeqs 1024, maxNumBatchedTokens 8192: vLLM's defaults on H100-PRO");
  });
  test("plan.gpu A100: vLLM's defaults on it", async () => {
    expect(await dryRun(scenario('a100', 'A100'))).toBe("  engine limits: maxNumSeqs 256, maxNumBatchedTokens 2048: vLLM's defaults on A100");
  });
  test('--gpu in place of plan.gpu, also where the scenario names none', async () => {
    expect(await dryRun(scenario('a100-flag', 'A100'), 'H200')).toBe("  engine limits: maxNumSeqs 1024, maxNumBatchedTokens 8192: vLLM's defaults on H200");
    expect(await dryRun(scenario('none-flag', undefined), 'B200')).toBe("  engine limits: maxNumSeqs 1024, maxNumBatchedTokens 8192: vLLM's defaults on B200");
  });
  test('a key the engine gives wins, and is said to be the scenario’s', async () => {
    expect(await dryRun(scenario('h100-64', 'H100-PRO', { maxNumSeqs: 64 }))).toBe(
      "  engine limits: maxNumSeqs 64 (set in the scenario), maxNumBatchedTokens 8192 (vLLM's default on H100-PRO)",
    );
    expect(await dryRun(scenario('a100-given', 'A100', { maxNumSeqs: 512, maxNumBatchedTokens: 4096 }))).toBe(
      '  engine limits: maxNumSeqs 512, maxNumBatchedTokens 4096: set in the scenario',
    );
  });
  test("no GPU named: loadlab's defaults, as before", async () => {
    expect(await dryRun(scenario('none', undefined))).toBe(
      "  engine limits: maxNumSeqs 256, maxNumBatchedTokens 8192: loadlab's defaults (no GPU named: plan.gpu or --gpu gives vLLM's on that GPU)",
    );
  });
});

test('plan --gpu: the points simulate with the defaults on that GPU', async () => {
  const out = join(dir, 'plan-out');
  const r = await stdoutOf(() =>
    planCommand({ scenario: scenario('plan', 'A100'), gpu: 'H100-PRO', 'workers-max': '1..1', seeds: 1, jobs: 1, shard: '0/1', out }),
  );
  expect(r.code).toBe(0);
  const { spec } = JSON.parse(readFileSync(join(out, 'plan.json'), 'utf8'));
  expect(spec.scenarioConfig.endpoint.llm.engine).toMatchObject({ maxNumSeqs: 1024, maxNumBatchedTokens: 8192 });
  expect(spec.prices.gpu).toBe('H100-PRO');
});
