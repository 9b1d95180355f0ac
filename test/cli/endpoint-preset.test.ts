/**
 * What a user of `loadlab run` and `serve --config` sees of `endpoint.preset`, QUEUE_DELAY's
 * minimum and `endpoint.initTimeoutMs`: the defaults in force and where they came from
 * (`--dry-run`), a config error naming the field (exit 2), and the report's count of workers
 * unhealthy on start. The commands run in this process.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { loadConfigFile } from '../../src/cli/config-file.js';
import { runCommand, type RunArgs } from '../../src/cli/commands/run.js';
import { runScenario } from '../../src/load/run-scenario.js';
import { parseScenario } from '../../src/load/scenario/loader.js';
import { renderMarkdown } from '../../src/report/render-md.js';
import { stdoutOf } from '../helpers/stdout-of.js';

const dir = mkdtempSync(join(tmpdir(), 'loadlab-preset-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const scenarioOf = (endpoint: Record<string, unknown>, durationMs = 4000) => ({
  name: 'preset',
  durationMs,
  endpoint: { workersMax: 1, ...endpoint },
  traffic: [{ name: 'a', arrival: { process: 'constant', ratePerSec: 1 }, client: { behaviour: 'run-poll' } }],
});

function file(name: string, doc: unknown): string {
  const f = join(dir, `${name}.json`);
  writeFileSync(f, JSON.stringify(doc));
  return f;
}

const dryRun = async (name: string, endpoint: Record<string, unknown>): Promise<string> => {
  const r = await stdoutOf(() => runCommand({ scenario: file(name, scenarioOf(endpoint)), 'dry-run': true } as RunArgs));
  expect(r.code).toBe(0);
  return r.out.split('\n').find((l) => l.includes('endpoint defaults'))!;
};

describe('run --dry-run: the endpoint defaults in force and where they came from', () => {
  test('docs (REST API v2 defaults: 300 s, 10 s, FlashBoot off): preset rest', async () => {
    expect(await dryRun('rest', { preset: 'rest' })).toBe(
      '  endpoint defaults: executionTimeoutMs 300000 (preset rest), idleTimeoutMs 10000 (preset rest), flashBoot off (preset rest), initTimeoutMs 420000 (default, as RUNPOD_INIT_TIMEOUT)',
    );
  });
  test('docs (console defaults: 600 s, 5 s, FlashBoot on): no preset is the console', async () => {
    expect(await dryRun('console', {})).toBe(
      '  endpoint defaults: executionTimeoutMs 600000 (preset console), idleTimeoutMs 5000 (preset console), flashBoot off (preset console has it on, but loadlab needs flashBoot.startMs to model it), initTimeoutMs 420000 (default, as RUNPOD_INIT_TIMEOUT)',
    );
  });
  test('docs (explicit settings override the defaults): a key given wins, and is said to be the scenario’s', async () => {
    expect(await dryRun('rest-given', { preset: 'rest', idleTimeoutMs: 7000, flashBoot: { startMs: 500 }, initTimeoutMs: 600_000 })).toBe(
      '  endpoint defaults: executionTimeoutMs 300000 (preset rest), idleTimeoutMs 7000 (set in the scenario), flashBoot on (set in the scenario), initTimeoutMs 600000 (set in the scenario)',
    );
  });
});

describe('QUEUE_DELAY takes values from 0.5 s', () => {
  test('docs (QUEUE_DELAY from 0.5 s): loadlab run refuses 0.4 with exit 2 naming the field; serve --config too', async () => {
    const f = file('qd04', scenarioOf({ scaler: { type: 'QUEUE_DELAY', value: 0.4 } }));
    await expect(runCommand({ scenario: f, 'dry-run': true } as RunArgs)).rejects.toMatchObject({
      exitCode: 2,
      message: expect.stringContaining(`${f}: endpoint.scaler.value: QUEUE_DELAY takes a wait of at least 0.5 s (RunPod's minimum)`),
    });
    const config = file('qd04-config', { endpoints: [{ id: 'ep', scaler: { type: 'QUEUE_DELAY', value: 0.4 } }] });
    expect(() => loadConfigFile(config)).toThrow(/endpoints\.0\.scaler\.value: QUEUE_DELAY takes a wait of at least 0\.5 s/);
    expect(() => loadConfigFile(file('qd05-config', { endpoints: [{ id: 'ep', scaler: { type: 'QUEUE_DELAY', value: 0.5 } }] }))).not.toThrow();
  });
  test('docs (QUEUE_DELAY from 0.5 s): a plan grid of QUEUE_DELAY values below 0.5 is refused too', () => {
    const r = parseScenario({ ...scenarioOf({}), plan: { workersMax: '1..2', grid: { 'scaler.value': [0.5, 0.25] } } }, 'grid.json');
    expect(r.ok ? [] : r.issues.map((i) => [i.path, i.message])).toEqual([
      ['plan.grid.scaler.value.1', "QUEUE_DELAY takes a wait of at least 0.5 s (RunPod's minimum)"],
    ]);
  });
});

describe('serve --config takes the preset', () => {
  test('docs (REST API v2 defaults): an endpoint of a serve config with preset rest', () => {
    const c = loadConfigFile(file('serve-rest', { endpoints: [{ id: 'ep', preset: 'rest', executionTimeoutMs: 1000 }] }));
    const e = c.config.endpoints[0]!;
    expect([e.preset, e.executionTimeoutMs, e.idleTimeoutMs]).toEqual(['rest', 1000, 10_000]);
  });
});

describe('the report counts workers unhealthy on start', () => {
  test('docs (a worker that takes over 7 min to start is unhealthy): report.json workers.unhealthyOnStart, report.md says it', async () => {
    const l = parseScenario(scenarioOf({ coldStartMs: 8 * 60_000 }, 8 * 60_000), 'unhealthy.json');
    if (!l.ok) throw new Error(JSON.stringify(l.issues));
    const r = await runScenario(l.scenario);
    expect(r.workers).toMatchObject({ started: 1, unhealthyOnStart: 1 });
    expect(r.jobs.finalStatus.COMPLETED ?? 0).toBe(0);
    expect(renderMarkdown(r)).toContain('| workers unhealthy on start (past initTimeoutMs) | 1 |');
  });
  test('decision: with no start past initTimeoutMs the count is absent (reports as before)', async () => {
    const l = parseScenario(scenarioOf({ coldStartMs: 8 * 60_000, initTimeoutMs: 600_000 }, 9 * 60_000), 'healthy.json');
    if (!l.ok) throw new Error(JSON.stringify(l.issues));
    const r = await runScenario(l.scenario);
    expect(r.workers?.started).toBe(1);
    expect(r.workers).not.toHaveProperty('unhealthyOnStart');
    expect(r.jobs.finalStatus.COMPLETED).toBeGreaterThan(0);
  });
});
