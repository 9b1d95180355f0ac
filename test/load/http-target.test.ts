/** The HTTP target against a real `serve` (real clock) on 127.0.0.1: client timeouts and server-sent events. */
import { afterAll, describe, expect, test } from 'vitest';
import { HttpTarget } from '../../src/load/http-target.js';
import { runScenario } from '../../src/load/run-scenario.js';
import { scenarioSchema } from '../../src/load/scenario-schema.js';
import { parseSimConfig } from '../../src/sim/config.js';
import { startServer, type RunningServer } from '../../src/server/server.js';

let srv: RunningServer | undefined;
afterAll(async () => srv?.close());

async function run(traffic: unknown[]) {
  const sc = scenarioSchema.parse({ name: 'http', durationMs: 1000, drainMs: 5000, endpoint: { id: 'ep', workersMax: 4 }, traffic });
  const parsed = parseSimConfig({ seed: 1, endpoints: [sc.endpoint] });
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
  srv ??= await startServer({ config: parsed.config, port: 0, clock: 'real' });
  const url = srv.baseUrl;
  return runScenario(sc, { target: () => new HttpTarget(url, { url, apiKey: 'k', endpointId: 'ep', causesReported: true }) });
}

describe('HTTP target', () => {
  test('a held /runsync past the client timeout (300 ms) ends as a client timeout, not an answer', async () => {
    const r = await run([{ name: 's', arrival: { process: 'constant', ratePerSec: 4 }, client: { behaviour: 'runsync', waitMs: 5000, timeoutMs: 300, payload: { sim: { durationMs: 3000 } } } }]);
    expect(r.operations.runsync!.clientTimeouts).toBe(4);
    expect(r.operations.runsync!.byStatus).toEqual({ 0: 4 });
    expect(r.flows.s!.outcomes).toEqual({ timeout: 4 });
    // Timed out at 300 ms, give or take the 25 ms sweep and a busy machine.
    expect(r.operations.runsync!.serviceMs.summary.min).toBeGreaterThanOrEqual(300);
    expect(r.operations.runsync!.serviceMs.summary.max).toBeLessThan(1000);
  }, 20_000);
  test('streaming openai chat: server-sent events are read as chunks', async () => {
    const r = await run([{ name: 'c', arrival: { process: 'constant', ratePerSec: 2 }, client: { behaviour: 'openai-chat', stream: true, maxTokens: 8 } }]);
    expect(r.flows.c!.outcomes).toEqual({ COMPLETED: 2 });
    expect(r.streams.calls).toBe(2);
    expect(r.streams.chunks).toBeGreaterThan(2);
  }, 20_000);
});
