/**
 * The HTTP target against a real `serve` (real clock) on 127.0.0.1: client timeouts, server-sent
 * events, requests still held when the run ends, and send lag measured from the intended time.
 */
import { afterAll, describe, expect, test } from 'vitest';
import { HttpTarget } from '../../../../src/load/targets/http/http-target.js';
import { runScenario } from '../../../../src/load/run-scenario.js';
import { scenarioSchema } from '../../../../src/load/scenario/schema.js';
import { parseSimConfig } from '../../../../src/contract/endpoint-config.js';
import { startServer, type RunningServer } from '../../../../src/server/server.js';

let srv: RunningServer | undefined;
afterAll(async () => srv?.close());

async function run(traffic: unknown[], drainMs = 5000, onTarget?: (t: HttpTarget) => void) {
  const sc = scenarioSchema.parse({ name: 'http', durationMs: 1000, drainMs, endpoint: { id: 'ep', workersMax: 4 }, traffic });
  const parsed = parseSimConfig({ seed: 1, endpoints: [sc.endpoint] });
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
  // A fresh server per test: jobs an earlier test left running (its clients timed out) would hold
  // the workers and delay this test's jobs past its drain.
  await srv?.close();
  srv = await startServer({ config: parsed.config, port: 0, clock: 'real' });
  const url = srv.baseUrl;
  return runScenario(sc, {
    target: () => {
      const t = new HttpTarget(url, { url, apiKey: 'k', endpointId: 'ep', causesReported: true });
      onTarget?.(t);
      return t;
    },
  });
}

describe('HTTP target', () => {
  test('a held /runsync past the client timeout (300 ms) ends as a client timeout, not an answer', async () => {
    const r = await run([
      {
        name: 's',
        arrival: { process: 'constant', ratePerSec: 4 },
        client: { behaviour: 'runsync', waitMs: 60_000, timeoutMs: 300, payload: { sim: { durationMs: 30_000 } } },
      },
    ]);
    expect(r.operations.runsync!.clientTimeouts).toBe(4);
    expect(r.operations.runsync!.byStatus).toEqual({ 0: 4 });
    expect(r.flows.s!.outcomes).toEqual({ timeout: 4 });
    // Timed out at 300 ms, never before; the answer would come at 30 s, so anything far below it
    // is the client's timeout, whatever a busy machine adds.
    expect(r.operations.runsync!.serviceMs.summary.min).toBeGreaterThanOrEqual(300);
    expect(r.operations.runsync!.serviceMs.summary.max).toBeLessThan(10_000);
  }, 20_000);
  test('streaming openai chat: server-sent events are read as chunks', async () => {
    const r = await run([{ name: 'c', arrival: { process: 'constant', ratePerSec: 2 }, client: { behaviour: 'openai-chat', stream: true, maxTokens: 8 } }]);
    expect(r.flows.c!.outcomes).toEqual({ COMPLETED: 2 });
    expect(r.streams.calls).toBe(2);
    expect(r.streams.chunks).toBeGreaterThan(2);
  }, 20_000);
  test('requests still held when the run ends are unanswered (session unfinished), not transport errors', async () => {
    const r = await run(
      [
        {
          name: 'h',
          arrival: { process: 'constant', ratePerSec: 4 },
          client: { behaviour: 'runsync', waitMs: 60_000, payload: { sim: { durationMs: 30_000 } } },
        },
      ],
      300,
    );
    expect(r.operations.runsync!.requests).toBe(4);
    expect(r.operations.runsync!.transportErrors).toBe(0);
    expect(r.operations.runsync!.byStatus).toEqual({});
    expect(r.flows.h!.outcomes).toEqual({ unfinished: 4 });
  }, 20_000);
  test('an arrival held up by a busy event loop is late by the time since it was due, not since its event ran', async () => {
    // 100 arrivals/s; the loop is blocked for 80 ms at 300 ms of the run's own clock (not the
    // test's: starting the server may take that long on a busy machine): the arrivals due
    // meanwhile go late.
    const block = (t: HttpTarget) =>
      t.at(300, () => {
        const s = performance.now();
        while (performance.now() - s < 80);
      });
    const r = await run([{ name: 'h', arrival: { process: 'constant', ratePerSec: 100 }, client: { behaviour: 'health' } }], 5000, block);
    expect(r.arrivals.intended).toBe(100);
    expect(r.arrivals.late).toBeGreaterThanOrEqual(5);
    expect(r.arrivals.sendLagMs.summary.max).toBeGreaterThanOrEqual(60);
  }, 20_000);
});
