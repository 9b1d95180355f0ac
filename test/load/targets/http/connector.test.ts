/**
 * The HTTP target's preconnect: connections opened before the run's clock starts are the ones
 * its requests use (no request is sent on them before), and none is opened during the run.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from 'vitest';
import { HttpTarget } from '../../../../src/load/targets/http/http-target.js';
import { runScenario } from '../../../../src/load/run-scenario.js';
import { scenarioSchema } from '../../../../src/load/scenario/schema.js';

test('preconnect: the run uses the connections opened before it starts, and opens none', async () => {
  const events: string[] = [];
  const server = createServer((req, res) => {
    events.push('request');
    req.resume();
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{"jobs":{"inQueue":0},"workers":{"running":0}}'));
  });
  server.on('connection', () => events.push('connection'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v2`;
  try {
    const sc = scenarioSchema.parse({
      name: 'pre',
      durationMs: 500,
      drainMs: 2000,
      endpoint: { id: 'ep' },
      traffic: [{ name: 'h', arrival: { process: 'constant', ratePerSec: 40 }, client: { behaviour: 'health', timeoutMs: 2000 } }],
    });
    const r = await runScenario(sc, { target: () => new HttpTarget(url, { url, apiKey: 'k', endpointId: 'ep', connections: 3, preconnect: 3 }) });
    expect(r.operations.health!.byStatus).toEqual({ 200: 20 });
    expect(events.slice(0, 3)).toEqual(['connection', 'connection', 'connection']);
    expect(events.filter((e) => e === 'connection')).toHaveLength(3);
    expect(events.filter((e) => e === 'request')).toHaveLength(20);
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}, 20_000);
