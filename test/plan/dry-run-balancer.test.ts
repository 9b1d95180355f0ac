/**
 * `loadlab run --dry-run` on a load-balancing endpoint: its defaults are told as the kind's own
 * (executionTimeoutMs 330000 whatever the preset, REQUEST_COUNT at workerConcurrency), and an
 * `http` flow's requests (a custom worker route) take jobDurationMs, not the token model. The
 * command runs in this process.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { runCommand, type RunArgs } from '../../src/cli/commands/run.js';
import { stdoutOf } from '../helpers/stdout-of.js';

const dir = mkdtempSync(join(tmpdir(), 'loadlab-dry-lb-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const chat = { name: 'chat', arrival: { process: 'constant', ratePerSec: 1 }, client: { behaviour: 'openai-chat', stream: true } };
const generate = { name: 'generate', arrival: { process: 'constant', ratePerSec: 1 }, client: { behaviour: 'http', method: 'POST', path: '/generate' } };

async function dryRun(name: string, endpoint: Record<string, unknown>, traffic: unknown[] = [chat, generate]): Promise<string[]> {
  const f = join(dir, `${name}.json`);
  writeFileSync(
    f,
    JSON.stringify({
      name,
      durationMs: 100_000,
      endpoint: {
        type: 'load-balancer',
        workersMax: 2,
        workerConcurrency: 4,
        jobDurationMs: 5000,
        llm: { ttftMs: 200, interTokenMs: 20, outputTokens: 64 },
        ...endpoint,
      },
      traffic,
    }),
  );
  const r = await stdoutOf(() => runCommand({ scenario: f, 'dry-run': true } as RunArgs));
  expect(r.code).toBe(0);
  return r.out.split('\n');
}
const line = (lines: string[], word: string) => lines.find((l) => l.includes(word))!;

describe('run --dry-run on a load-balancing endpoint', () => {
  test("its 330000 ms request limit and REQUEST_COUNT scaler are told as the kind's defaults, whatever the preset; keys given as set", async () => {
    for (const preset of ['console', 'rest']) {
      expect(line(await dryRun(`lb-${preset}`, { preset }), 'endpoint defaults')).toMatch(
        /^ {2}endpoint defaults: executionTimeoutMs 330000 \(a load-balancing endpoint's, whatever the preset: RunPod ends its requests at 5\.5 min\), idleTimeoutMs \d+ \(preset \w+\), scaler REQUEST_COUNT 4 \(a load-balancing endpoint's: requests in flight per worker, at workerConcurrency\), /,
      );
    }
    expect(line(await dryRun('lb-given', { executionTimeoutMs: 300_000, scaler: { type: 'REQUEST_COUNT', value: 2 } }), 'endpoint defaults')).toContain(
      'executionTimeoutMs 300000 (set in the scenario), idleTimeoutMs 5000 (preset console), scaler REQUEST_COUNT 2 (set in the scenario)',
    );
  });

  test("an http flow's requests take jobDurationMs (the worker's custom route); a chat's, the token model", async () => {
    // 100 chats of 200 + 63 × 20 = 1460 ms and 100 custom requests of 5000 ms.
    expect(line(await dryRun('lb-both', {}), 'worker time')).toBe(
      '  worker time: ~646 job-seconds (200 jobs × 3.23 s mean job time); a worker runs up to 4 at once, so between ~162 (every worker full) and ~646 worker-seconds',
    );
    expect(line(await dryRun('lb-http', {}, [generate]), 'worker time')).toContain('(100 jobs × 5.00 s mean job time)');
    expect(line(await dryRun('lb-chat', {}, [chat]), 'worker time')).toContain('(100 jobs × 1.46 s mean job time)');
  });
});
