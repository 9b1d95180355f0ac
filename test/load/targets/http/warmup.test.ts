/**
 * The warm-up of the HTTP send path (warmup.ts): it runs before a run's clock starts, against a
 * stub of its own, sized to the run's peak rate and counted per process; the run's target sees
 * only the scenario's traffic.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, expect, test } from 'vitest';
import { HttpTarget } from '../../../../src/load/targets/http/http-target.js';
import { warmUpHttp, warmUpRequestsFor, WARMUP_REQUESTS } from '../../../../src/load/targets/http/warmup.js';
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

test("the first HTTP run of a process warms up against its own stub: the target gets exactly the scenario's requests", async () => {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v2`;
  const sc = scenarioSchema.parse({
    name: 'warm',
    durationMs: 1000,
    drainMs: 2000,
    endpoint: { id: 'ep' },
    traffic: [{ name: 'h', arrival: { process: 'constant', ratePerSec: 20 }, client: { behaviour: 'health' } }],
  });
  const r = await runScenario(sc, { target: () => new HttpTarget(url, { url, apiKey: 'k', endpointId: 'ep' }) });
  expect(r.operations.health!.requests).toBe(20);
  expect(seen).toHaveLength(20);
  expect(new Set(seen)).toEqual(new Set(['GET /v2/ep/health']));
  // The run did warm up (its requests went to its stub); a later one as large finds it done.
  let made = 0;
  const targetFor = (u: string) => (made++, new HttpTarget(u, { url: u, apiKey: 'k', endpointId: 'ep' }));
  expect(await warmUpHttp(targetFor)).toBe(WARMUP_REQUESTS);
  expect(made).toBe(0);
  // A larger one sends only the difference, through a warm-up target of its own.
  expect(await warmUpHttp(targetFor, WARMUP_REQUESTS + 50)).toBe(WARMUP_REQUESTS + 50);
  expect(made).toBe(1);
}, 20_000);

test('the warm-up follows the peak rate: a fifth of a second of it, at most WARMUP_REQUESTS', () => {
  expect([10, 1000, 4000, 10_000, 50_000].map(warmUpRequestsFor)).toEqual([2, 200, 800, 2000, WARMUP_REQUESTS]);
});
