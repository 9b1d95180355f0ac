/**
 * `loadlab run --dry-run` on an endpoint listing its GPU types: the types in priority order with
 * their host capacity, and the engine's limits on each with where they came from. In process.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { runCommand, type RunArgs } from '../../src/cli/commands/run.js';
import { stdoutOf } from '../helpers/stdout-of.js';

const dir = mkdtempSync(join(tmpdir(), 'loadlab-dry-run-gpus-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test('dry-run: GPU types, host capacity, engine limits per type', async () => {
  const f = join(dir, 'gpus.json');
  writeFileSync(
    f,
    JSON.stringify({
      name: 'gpus',
      durationMs: 2000,
      endpoint: {
        id: 'llm',
        gpus: ['H100-PRO', 'A100'],
        hostCapacity: { 'H100-PRO': 1 },
        llm: { engine: { decodeMs: 5, byGpu: { A100: { decodeMs: 8, maxNumSeqs: 128 } } }, outputTokens: 4 },
      },
      traffic: [{ name: 'chat', arrival: { process: 'constant', ratePerSec: 2 }, client: { behaviour: 'openai-chat', stream: true } }],
    }),
  );
  const r = await stdoutOf(() => runCommand({ scenario: f, 'dry-run': true } as RunArgs));
  expect(r.code).toBe(0);
  const lines = r.out.split('\n');
  expect(lines.filter((l) => /GPU types|engine limits/.test(l))).toEqual([
    '  GPU types (priority order): H100-PRO (room for 1 worker), A100 (unlimited host capacity)',
    "  engine limits on H100-PRO: maxNumSeqs 1024, maxNumBatchedTokens 8192: vLLM's defaults on H100-PRO",
    "  engine limits on A100: maxNumSeqs 128 (set in the scenario), maxNumBatchedTokens 2048 (vLLM's default on A100)",
  ]);
});
