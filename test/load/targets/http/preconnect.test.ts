/**
 * `run --target` opens connections before the clock starts, one per ARRIVALS_PER_PRECONNECTED
 * arrivals/s at the scenario's peak (at most --connections): a high rate does not open them all
 * in its first 100 ms, holding its first arrivals back.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { httpTargetFor } from '../../../../src/load/targets/http/http-target.js';
import { ARRIVALS_PER_PRECONNECTED } from '../../../../src/load/targets/http/send-load.js';
import { runScenario } from '../../../../src/load/run-scenario.js';
import { scenarioSchema } from '../../../../src/load/scenario/schema.js';

let connections = 0;
let atFirstRequest: number | undefined;
let firstRequestSeen = false;
const server = createServer((req, res) => {
  // Counted 20 ms after the first request, and two turns of the event loop after that: this
  // server shares the client's process, and the accept of a connection the client has already
  // opened may be handled after that request. On a busy machine the 20 ms timer may fire first in
  // the turn after a stall, before that turn's accepts: the two turns of setImmediate each poll
  // for them, whatever the clock says. On demand, 20 ms of arrivals at 1 000/s answered at once
  // would open one or two connections.
  if (!firstRequestSeen) {
    firstRequestSeen = true;
    setTimeout(() => setImmediate(() => setImmediate(() => (atFirstRequest = connections))), 20);
  }
  req.resume();
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end('{"jobs":{"inQueue":0,"inProgress":0},"workers":{}}');
});
server.on('connection', () => connections++);
let url = '';
beforeAll(() => new Promise<void>((r) => server.listen(0, '127.0.0.1', () => ((url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v2`), r()))));
afterAll(() => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))));

async function run(ratePerSec: number, connectionsFlag?: number): Promise<number> {
  connections = 0;
  atFirstRequest = undefined;
  firstRequestSeen = false;
  const sc = scenarioSchema.parse({
    name: 'pre',
    durationMs: 200,
    drainMs: 2000,
    endpoint: { id: 'ep' },
    traffic: [{ name: 'h', arrival: { process: 'constant', ratePerSec }, client: { behaviour: 'health' } }],
  });
  await runScenario(sc, { target: httpTargetFor(sc, { target: url, connections: connectionsFlag }) });
  for (let i = 0; i < 500 && atFirstRequest === undefined; i++) await new Promise((r) => setTimeout(r, 10));
  return atFirstRequest!;
}

test('at 1 000 arrivals/s, 20 connections are open before the first request; at 5/s, one', async () => {
  expect(ARRIVALS_PER_PRECONNECTED).toBe(50);
  expect(await run(1000)).toBeGreaterThanOrEqual(20);
  expect(await run(5)).toBe(1);
}, 20_000);

test('never more than --connections', async () => {
  expect(await run(1000, 4)).toBe(4);
  expect(connections).toBeLessThanOrEqual(4);
}, 20_000);
