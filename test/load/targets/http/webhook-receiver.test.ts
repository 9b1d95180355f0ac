/**
 * run-webhook against a real `serve` on 127.0.0.1: the built-in HTTP receiver gets the job's
 * `webhook` URL, records attempts, retries, failures and lateness, and fails as told.
 */
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, test } from 'vitest';
import { HttpTarget } from '../../../../src/load/targets/http/http-target.js';
import { LockstepTarget } from '../../../../src/load/targets/lockstep/lockstep-target.js';
import type { JobOutcome } from '../../../../src/load/record/recorder.js';
import { runScenario } from '../../../../src/load/run-scenario.js';
import { loadScenarioFile } from '../../../../src/load/scenario/loader.js';
import { scenarioSchema, type Scenario } from '../../../../src/load/scenario/schema.js';
import { parseSimConfig } from '../../../../src/contract/endpoint-config.js';
import { startServer, type RunningServer } from '../../../../src/server/server.js';

const servers: RunningServer[] = [];
afterAll(async () => {
  for (const s of servers) await s.close();
});

async function serve(sc: Scenario, clock: 'manual' | 'real'): Promise<RunningServer> {
  const parsed = parseSimConfig({ seed: sc.seed, endpoints: [sc.endpoint] });
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
  const s = await startServer({ config: parsed.config, port: 0, clock });
  servers.push(s);
  return s;
}

describe('webhooks over HTTP', () => {
  test('real clock: every first attempt fails (500), the retry 300 ms later is delivered', async () => {
    const sc = scenarioSchema.parse({
      name: 'hooks',
      durationMs: 1000,
      drainMs: 10_000,
      endpoint: { id: 'ep', workersMax: 5, jobDurationMs: 50, webhook: { attempts: 3, intervalMs: 300 } },
      webhookReceiver: { failFirstAttempts: 1 },
      traffic: [{ name: 'w', arrival: { process: 'constant', ratePerSec: 10 }, client: { behaviour: 'run-webhook' } }],
    });
    const srv = await serve(sc, 'real');
    const r = await runScenario(sc, { target: () => new HttpTarget(srv.baseUrl, { url: srv.baseUrl, apiKey: 'k', endpointId: 'ep', causesReported: true }) });
    expect(r.flows.w!.outcomes).toEqual({ COMPLETED: 10 });
    expect(r.webhooks).toMatchObject({ attempts: 20, delivered: 10, failedAttempts: 10, retries: 10, gaveUp: 0, refused: 0, malformed: 0 });
    // Delivered on the retry: about one interval (300 ms) after the job ended, in wall time.
    expect(r.webhooks.latenessMs.summary.p50).toBeGreaterThanOrEqual(250);
    expect(r.webhooks.latenessMs.summary.max).toBeLessThan(5000); // generous for a busy machine: the attempt counts above already pin the retry
  }, 30_000);

  test('lockstep: webhook-failing (random failures, retries, lost deliveries) equals in-process', async () => {
    const l = loadScenarioFile(fileURLToPath(new URL('../../../../scenarios/webhook-failing.yaml', import.meta.url)));
    if (!l.ok) throw new Error(JSON.stringify(l.issues));
    const sc = l.scenario;
    const inProc: JobOutcome[] = [];
    const a = await runScenario(sc, { onJob: (j) => inProc.push(j) });
    const srv = await serve(sc, 'manual');
    const lock: JobOutcome[] = [];
    const b = await runScenario(sc, { target: () => new LockstepTarget(srv.baseUrl, { apiKey: 'k', endpointId: sc.endpoint.id }), onJob: (j) => lock.push(j) });
    expect(a.webhooks.gaveUp).toBeGreaterThan(0);
    expect(a.webhooks.retries).toBeGreaterThan(100);
    // The HTTP receiver also says what it turned away: nothing here.
    expect(b.webhooks).toEqual({ ...a.webhooks, refused: 0, malformed: 0 });
    expect(b.flows).toEqual(a.flows);
    expect(lock).toEqual(inProc);
  }, 60_000);
});
