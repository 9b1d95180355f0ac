/**
 * `windows.endpoint` and `windows.requests` of a run: the endpoint's time averages are exact on
 * the virtual clock (by hand, and against a per-ms sampling of the simulator), the requests per
 * window add up to each operation's total, and against an HTTP target the `/health` answers are
 * averaged per window.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { TimeAverages } from '../../../src/lib/time-averages.js';
import { runScenario } from '../../../src/load/run-scenario.js';
import { scenarioSchema, type Scenario } from '../../../src/load/scenario/schema.js';
import { loadScenarioFile } from '../../../src/load/scenario/loader.js';
import { inProcessTarget } from '../../../src/load/targets/in-process/for-scenario.js';
import { HttpTarget } from '../../../src/load/targets/http/http-target.js';
import type { Target } from '../../../src/load/targets/target.js';

describe('TimeAverages', () => {
  it('counts each value for the time it held, split at window boundaries', () => {
    const a = new TimeAverages(10, 2);
    a.value[0] = 2; // 2 over [0, 5)
    a.advance(5);
    a.value[0] = 4; // 4 over [5, 25): windows 0, 1 and half of 2
    a.value[1] = 1;
    a.advance(25);
    a.value[0] = 0;
    // The run ends at 28: window 2 covers [20, 28).
    expect(a.averages(28, 4)).toEqual([
      [3, 4, 2.5, 0],
      [0.5, 1, 1, 0],
    ]);
  });
});

function sc(input: object): Scenario {
  return scenarioSchema.parse(input);
}

describe('windows.endpoint in-process (source simulator)', () => {
  it('is the queue a hand computation gives: one warm worker, 2 s jobs arriving every second', async () => {
    // Job k arrives at k s and starts at 2k s: it waits in the queue over [k s, 2k s).
    const r = await runScenario(
      sc({
        name: 'by-hand',
        durationMs: 10_000,
        drainMs: 60_000,
        endpoint: { id: 'ep', workersMin: 1, workersMax: 1, jobDurationMs: 2000 },
        traffic: [
          {
            name: 'p',
            arrival: { process: 'constant', ratePerSec: 1 },
            client: { behaviour: 'run-poll', poll: { baseMs: 500, factor: 1, maxMs: 500, jitter: 0 } },
          },
        ],
      }),
    );
    const e = r.windows!.endpoint!;
    expect(e.source).toBe('simulator');
    // [0, 10 s): jobs 1…9 wait 1+2+3+4+5+4+3+2+1 s = 25 s; [10 s, 20 s): jobs 6…9 wait 2+4+6+8 s.
    expect(e.queueLength.slice(0, 2)).toEqual([2.5, 2]);
    expect(e.workers.running.slice(0, 2)).toEqual([1, 1]);
    expect(e.jobsInSystem.slice(0, 2)).toEqual([3.5, 3]);
    expect(e.workers.idle.slice(0, 2)).toEqual([0, 0]);
    expect(e.workers.initializing.slice(0, 2)).toEqual([0, 0]);
  });

  it("equals a per-ms sampling of the simulator's state (queue-throttling)", async () => {
    const s = load('queue-throttling');
    const perMs: number[][] = [];
    const r = await runScenario(s, {
      target: (x, seed) => {
        const t = inProcessTarget(x, seed);
        const ep = t.sim.endpoints.get(x.endpoint.id)!;
        const state = () => [
          ep.queue.length,
          ep.queue.length + ep.pool.counts.running,
          ep.pool.counts.running,
          ep.pool.counts.idle,
          ep.pool.counts.initializing,
        ];
        let at = 0;
        let held = state();
        // The drive loop asks `stop()` after every event: every whole ms since the last one had the state read then.
        const drive = t.drive.bind(t);
        t.drive = (stop, hardEndMs, tick) =>
          drive(
            () => {
              for (; at < t.now(); at++) perMs.push(held);
              held = state();
              return stop();
            },
            hardEndMs,
            tick,
          );
        return t;
      },
    });
    for (let ms = perMs.length; ms < r.elapsedMs; ms++) perMs.push(perMs[perMs.length - 1]!);
    const w = r.windows!.windowMs;
    const e = r.windows!.endpoint!;
    const cols = [e.queueLength, e.jobsInSystem, e.workers.running, e.workers.idle, e.workers.initializing];
    expect(e.queueLength.length).toBe(Math.ceil(r.elapsedMs / w));
    for (let i = 0; i < e.queueLength.length; i++) {
      const ms = perMs.slice(i * w, Math.min((i + 1) * w, r.elapsedMs));
      cols.forEach((col, k) => expect(col[i], `series ${k} window ${i}`).toBe(Math.round((ms.reduce((a, v) => a + v[k]!, 0) / ms.length) * 1000) / 1000));
    }
    expect(Math.max(...e.queueLength)).toBeGreaterThan(20);
  });
});

function load(name: string): Scenario {
  const l = loadScenarioFile(`scenarios/${name}.yaml`);
  if (!l.ok) throw new Error(JSON.stringify(l.issues));
  return l.scenario;
}

describe("a run's report", () => {
  it("has requests per window adding up to each operation's requests, and a sensible endpoint (queue-throttling)", async () => {
    const s = load('queue-throttling');
    const r = await runScenario(s);
    const w = r.windows!;
    const n = Math.ceil(r.elapsedMs / w.windowMs);
    expect(Object.keys(w.requests!).sort()).toEqual(Object.keys(r.operations).sort());
    for (const [op, col] of Object.entries(w.requests!)) {
      expect(col).toHaveLength(n);
      expect(
        col.reduce((a, b) => a + b, 0),
        op,
      ).toBe(r.operations[op]!.requests);
    }
    const e = w.endpoint!;
    for (const col of [e.queueLength, e.jobsInSystem, ...Object.values(e.workers)]) expect(col).toHaveLength(n);
    // The queue grows past its throttle depth (60) while the one worker runs.
    expect(Math.max(...e.queueLength)).toBeGreaterThan(50);
    for (let i = 0; i < n; i++) {
      const workers = Object.values(e.workers).reduce((a, col) => a + col[i]!, 0);
      expect(workers).toBeLessThanOrEqual(s.endpoint.workersMax + 1e-9);
      expect(e.workers.running[i]).toBeLessThanOrEqual(s.endpoint.workersMax);
      expect(e.jobsInSystem[i]).toBeCloseTo(e.queueLength[i]! + e.workers.running[i]!, 2);
    }
  });

  it('is the same for the same seed', async () => {
    const s = load('queue-throttling');
    const [a, b] = [await runScenario(s), await runScenario(s)];
    expect(JSON.stringify(a.windows)).toBe(JSON.stringify(b.windows));
  });
});

describe('windows.endpoint against an HTTP target (source sampled)', () => {
  let k = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      // Alternating answers: queue 2 then 4, so the mean of an even count is 3.
      const q = k++ % 2 === 0 ? 2 : 4;
      const body = JSON.stringify({
        jobs: { completed: 0, failed: 0, inProgress: 1, inQueue: q, retried: 0 },
        workers: { idle: 0, initializing: 1, ready: 1, running: 1, throttled: 0, unhealthy: 0 },
      });
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
      res.end(body);
    });
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  const run = async (traffic: object[]) => {
    await new Promise<void>((r) => (server.listening ? r() : server.listen(0, '127.0.0.1', () => r())));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v2`;
    const target = (): Target => new HttpTarget(url, { url, apiKey: 'k', endpointId: 'ep' });
    return runScenario(sc({ name: 'sampled', durationMs: 1000, drainMs: 2000, endpoint: { id: 'ep' }, traffic }), { target });
  };

  it('is the mean of the /health answers read in each window', async () => {
    const r = await run([{ name: 'h', arrival: { process: 'constant', ratePerSec: 10 }, client: { behaviour: 'health' } }]);
    expect(r.operations.health!.requests).toBe(10);
    const e = r.windows!.endpoint!;
    expect(e.source).toBe('sampled');
    expect(e.queueLength).toEqual([3]);
    expect(e.jobsInSystem).toEqual([4]);
    expect(e.workers).toEqual({ running: [1], idle: [0], initializing: [1], throttled: [0], unhealthy: [0] });
    expect(r.windows!.requests).toEqual({ health: [10] });
  }, 20_000);
});
