/**
 * The warm-up of the HTTP send path (http-warmup.ts): it runs once per process, before the first
 * run's clock starts, against a stub of its own; the run's target sees only the scenario's traffic.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, expect, test } from 'vitest';
import { HttpTarget } from '../../../../src/load/targets/http/http-target.js';
import { warmUpHttp, WARMUP_REQUESTS } from '../../../../src/load/targets/http/warmup.js';
import { runScenario } from '../../../../src/load/run-scenario.js';
import { scenarioSchema } from '../../../../src/load/scenario/schema.js';

const seen: string[] = [];
const server = createServer((req, res) => {
  seen.push(`${req.method} ${req.url}`);
  req.resume();
  req.on('end', () => {
    const body = '{"jobs":{},"workers":{}}';
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
    res.end(body);
  });
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

test('the first HTTP run of a process warms up against its own stub: the target gets exactly the scenario\'s requests', async () => {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v2`;
  const sc = scenarioSchema.parse({
    name: 'warm', durationMs: 1000, drainMs: 2000, endpoint: { id: 'ep' },
    traffic: [{ name: 'h', arrival: { process: 'constant', ratePerSec: 20 }, client: { behaviour: 'health' } }],
  });
  const r = await runScenario(sc, { target: () => new HttpTarget(url, { url, apiKey: 'k', endpointId: 'ep' }) });
  expect(r.operations.health!.requests).toBe(20);
  expect(seen).toHaveLength(20);
  expect(new Set(seen)).toEqual(new Set(['GET /v2/ep/health']));
  // The run did warm up (its requests went to its stub), and only once per process.
  let made = 0;
  expect(await warmUpHttp((u) => (made++, new HttpTarget(u, { url: u, apiKey: 'k', endpointId: 'ep' })))).toBe(WARMUP_REQUESTS);
  expect(made).toBe(0);
}, 20_000);
