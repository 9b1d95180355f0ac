/**
 * The HTTP target's pacing is frugal: between arrivals its loop sleeps (a timer wakes it for
 * each one) instead of spinning, so a low-rate run costs a small part of a core, and every
 * arrival reaches the server. The server runs in its own process (its
 * work is not counted) and records when each request arrived; CPU is this process's during the
 * run's clock (after the warm-up).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { HttpTarget, type HttpTargetOptions } from '../../../../src/load/targets/http/http-target.js';
import { runScenario } from '../../../../src/load/run-scenario.js';
import { scenarioSchema } from '../../../../src/load/scenario/schema.js';

/** Answers every request; GET /times returns the arrival times (ms, server clock) of the others. */
const SERVER = `
import { createServer } from 'node:http';
const times = [];
const s = createServer((req, res) => {
  if (req.url === '/times') return res.end(JSON.stringify(times));
  times.push(performance.now());
  req.resume();
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end('{"jobs":{"inQueue":0,"inProgress":0},"workers":{}}');
});
s.listen(0, '127.0.0.1', () => console.log(s.address().port));
`;

let server: ChildProcess | undefined;
let origin = '';
beforeAll(async () => {
  server = spawn(process.execPath, ['--input-type=module', '-e', SERVER], { stdio: ['ignore', 'pipe', 'inherit'] });
  origin = await new Promise<string>((resolve) => server!.stdout!.once('data', (d: Buffer) => resolve(`http://127.0.0.1:${d.toString().trim()}`)));
});
afterAll(() => void server?.kill());

/** Notes this process's CPU at the run's first and last send. */
class CpuTarget extends HttpTarget {
  first: NodeJS.CpuUsage | undefined;
  last: NodeJS.CpuUsage | undefined;
  firstAt = 0;
  lastAt = 0;
  constructor(url: string, opts: HttpTargetOptions) {
    super(url, opts);
    const dispatch = this.pool.dispatch.bind(this.pool);
    this.pool.dispatch = (wire, x) => {
      this.sending();
      return dispatch(wire, x);
    };
  }
  private sending(): void {
    const now = performance.now();
    if (!this.first) {
      this.first = process.cpuUsage();
      this.firstAt = now;
    } else {
      this.last = process.cpuUsage();
      this.lastAt = now;
    }
  }
}

describe('HTTP target pacing', () => {
  test('200 arrivals/s for 3 s: the generator uses well under a core, and every arrival reaches the server', async () => {
    const ratePerSec = 200;
    const sc = scenarioSchema.parse({
      name: 'frugal',
      durationMs: 3000,
      drainMs: 2000,
      endpoint: { id: 'ep' },
      traffic: [{ name: 'h', arrival: { process: 'constant', ratePerSec }, client: { behaviour: 'health', timeoutMs: 5000 } }],
    });
    let t: CpuTarget | undefined;
    const url = `${origin}/v2`;
    const r = await runScenario(sc, { target: () => (t = new CpuTarget(url, { url, apiKey: 'k', endpointId: 'ep' })) });
    expect(r.operations.health!.byStatus).toEqual({ 200: 600 });

    // A loop that spins between arrivals costs a whole core (1.0) here; one that sleeps, a few %.
    const runCpuMs = (t!.last!.user + t!.last!.system - t!.first!.user - t!.first!.system) / 1000;
    const share = runCpuMs / (t!.lastAt - t!.firstAt);
    console.log(`CPU ${(share * 100).toFixed(1)} % of a core; `);
    expect(share).toBeLessThan(0.35);

    // Every arrival reached the server. How late each was against the even schedule is printed,
    // not judged: with client and server on the cores a loaded runner shares with other tests,
    // the median has been from ~1 ms (idle) to hundreds of ms (the process not scheduled). The
    // bench holds the generator to its figures on a quiet machine (bench/generator-vs-peers.ts,
    // docs/performance.md: lateness p99 under 5 ms at 1 000 and 4 000/s).
    const times = (await (await fetch(`${origin}/times`)).json()) as number[];
    expect(times).toHaveLength(600);
    const offsets = times.map((at, k) => at - (k * 1000) / ratePerSec);
    const origin0 = Math.min(...offsets);
    const late = offsets.map((o) => o - origin0).sort((a, b) => a - b);
    console.log(`lateness p50 ${late[300]!.toFixed(2)} ms, p99 ${late[594]!.toFixed(2)} ms`);
  }, 20_000);
});
