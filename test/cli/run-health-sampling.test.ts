/**
 * `loadlab run --target URL --health-every`: the runner's own GET /health reads, apart from the
 * scenario's traffic. Against a real `serve` (loopback, real clock) whose endpoint holds a known
 * state, the sampled queue and workers in report.json and metrics.om are serve's own gauges;
 * `--health-every 0` sends no /health at all; a /health read that fails (a 502, a reset
 * connection, a 500 or a body without `jobs.inQueue` at every read, no answer at all) is counted by
 * its cause and sampling goes on; only a 401 or 404 stops it, with one warning; the run ends on
 * time with its usual exit code either way; a bad value exits 2 naming the flag.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, describe, expect, test } from 'vitest';
import { CLIENT_METRIC, METRIC } from '../../src/contract/metric-names.js';
import type { RunResult } from '../../src/report/run-result.js';
import { batched } from '../helpers/cli-batch.js';
import { parseProm, select, value } from '../telemetry/prom-text.js';
import { startServe } from './serve-process.js';

const dir = mkdtempSync(join(tmpdir(), 'loadlab-health-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const KEY = 'health-key-5150';
const env: NodeJS.ProcessEnv = { ...process.env, CI: 'true' };
delete env.RUNPOD_API_KEY;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs the built CLI without blocking this process (a server of the test must answer meanwhile). */
function run(...args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const p = spawn('node', ['bin/loadlab.js', 'run', ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  p.stdout.on('data', (d: Buffer) => void (stdout += d.toString()));
  p.stderr.on('data', (d: Buffer) => void (stderr += d.toString()));
  const kill = setTimeout(() => p.kill('SIGKILL'), 45_000);
  return new Promise((resolve) =>
    p.on('exit', (status) => {
      clearTimeout(kill);
      resolve({ status, stdout, stderr });
    }),
  );
}

function scenario(name: string, body: Record<string, unknown>): string {
  const f = join(dir, `${name}.json`);
  // A busy 2-core machine may send late; these tests look at /health, not at lateness: only a send 5 s late counts.
  writeFileSync(f, JSON.stringify({ name, seed: 3, openModel: { lateAfterMs: 5000 }, ...body }));
  return f;
}

const report = (out: string) => JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as RunResult;

async function scrape(base: string) {
  const r = await request(base.replace(/\/v2$/, '/metrics'));
  return parseProm(await r.body.text());
}

describe('/health sampled by the runner against loadlab serve', () => {
  test("a known endpoint state: windows.endpoint (sampled), headroom and metrics.om equal serve's own queue and workers gauges; the reads are counted apart", async () => {
    // Two workers busy with 10-minute jobs and three jobs queued behind them, for the whole run.
    const endpoint = { id: 'ep', workersMax: 2, idleTimeoutMs: 600_000 };
    const file = scenario('sampled', {
      durationMs: 2500,
      drainMs: 1000,
      endpoint,
      // /run calls the endpoint refuses (400: an executionTimeout below its minimum): the run lasts 2 s and leaves the endpoint as it is.
      traffic: [
        { name: 'refused', arrival: { process: 'constant', ratePerSec: 2 }, client: { behaviour: 'run-poll', payload: { policy: { executionTimeout: 1 } } } },
      ],
    });
    const srv = await startServe(['--config', file, '--api-key', KEY]);
    try {
      for (let i = 0; i < 5; i++) {
        const r = await request(`${srv.base}/ep/run`, {
          method: 'POST',
          headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
          body: JSON.stringify({ input: { sim: { durationMs: 600_000 } } }),
        });
        expect(r.statusCode).toBe(200);
        await r.body.dump();
      }
      const state = async () => {
        const m = await scrape(srv.base);
        return [value(m, METRIC.queueJobs, { endpoint: 'ep' }), value(m, METRIC.workers, { endpoint: 'ep', state: 'running' })];
      };
      for (let i = 0; i < 100 && (await state()).join() !== '3,2'; i++) await sleep(50);
      expect(await state()).toEqual([3, 2]);
      const healthBefore = select(await scrape(srv.base), `${METRIC.httpRequests}`, { route: 'health' }).reduce((n, s) => n + s.value, 0);

      const out = join(dir, 'sampled');
      const r = await run(file, '--target', srv.base, '--api-key', KEY, '--out', out, '--health-every', '200ms');
      expect(r.status, r.stderr).toBe(0);
      expect(await state(), 'serve after the run').toEqual([3, 2]);

      const rep = report(out);
      expect(rep.windows!.endpoint).toEqual({
        source: 'sampled',
        queueLength: [3],
        jobsInSystem: [5],
        workers: { running: [2], idle: [0], initializing: [0], throttled: [0], unhealthy: [0] },
      });
      expect([rep.headroom.peakQueueDepth, rep.headroom.peakRunningWorkers, rep.headroom.workersMax]).toEqual([3, 2, 2]);
      // The sampler's reads: one at 0 and one every 200 ms of the ~2 s run; none in operations, flows or arrivals.
      const h = rep.healthSampling!;
      expect(h.everyMs).toBe(200);
      expect(h.requests).toBeGreaterThanOrEqual(6);
      // The last read may still be out when the run ends: sent, neither answered nor an error.
      expect([h.errors, h.stopped]).toEqual([0, undefined]);
      expect(h.answered).toBeGreaterThanOrEqual(h.requests - 1);
      expect(Object.keys(rep.operations)).toEqual(['run']);
      expect(rep.operations.run!.byStatus).toEqual({ 400: rep.flows.refused!.sessions });
      expect(rep.arrivals.intended).toBe(rep.flows.refused!.sessions);
      const healthAfter = select(await scrape(srv.base), `${METRIC.httpRequests}`, { route: 'health' }).reduce((n, s) => n + s.value, 0);
      const served = healthAfter - healthBefore;
      expect(served, "serve counted the sampler's /health").toBeGreaterThanOrEqual(h.answered);
      expect(served).toBeLessThanOrEqual(h.requests);
      expect(r.stdout).toContain(`  /health sampling: every 200 ms, ${h.answered} of ${h.requests} answered, 0 without a sample`);

      const om = readFileSync(join(out, 'metrics.om'), 'utf8');
      expect(om).toMatch(new RegExp(`^${CLIENT_METRIC.endpointQueueJobs}\\{endpoint="ep",scenario="sampled"\\} 3 `, 'm'));
      expect(om).toMatch(new RegExp(`^${CLIENT_METRIC.endpointJobsInSystem}\\{endpoint="ep",scenario="sampled"\\} 5 `, 'm'));
      expect(om).toMatch(new RegExp(`^${CLIENT_METRIC.endpointWorkers}\\{endpoint="ep",scenario="sampled",state="running"\\} 2 `, 'm'));
      expect(readFileSync(join(out, 'report.html'), 'utf8')).toContain('Queue and workers by state');
    } finally {
      srv.stop();
    }
  }, 60_000);

  test('--health-every 0: no /health request reaches serve, no endpoint series, no healthSampling', async () => {
    const file = scenario('off', {
      durationMs: 1500,
      drainMs: 3000,
      endpoint: { id: 'ep', workersMax: 2, jobDurationMs: 100 },
      traffic: [
        {
          name: 'poll',
          arrival: { process: 'constant', ratePerSec: 4 },
          client: { behaviour: 'run-poll', poll: { baseMs: 100, factor: 1, maxMs: 100, jitter: 0 } },
        },
      ],
    });
    const srv = await startServe(['--config', file, '--api-key', KEY]);
    try {
      const out = join(dir, 'off');
      const r = await run(file, '--target', srv.base, '--api-key', KEY, '--out', out, '--health-every', '0');
      expect(r.status, r.stderr).toBe(0);
      const rep = report(out);
      expect(rep.healthSampling).toBeUndefined();
      expect(rep.windows!.endpoint).toBeUndefined();
      expect(rep.headroom.peakQueueDepth).toBe(null);
      expect(rep.jobs.accepted).toBeGreaterThan(0);
      expect(select(await scrape(srv.base), METRIC.httpRequests, { route: 'health' })).toEqual([]);
      expect(r.stdout).not.toContain('/health sampling');
      expect(readFileSync(join(out, 'metrics.om'), 'utf8')).not.toContain(CLIENT_METRIC.endpointQueueJobs);
    } finally {
      srv.stop();
    }
  }, 60_000);
});

describe.concurrent('a /health the runner cannot always read', () => {
  /** A stand-in endpoint: /purge-queue answers 200; the n-th /health request (1-based) as `health` says. Counts the /health requests. */
  async function endpoint(health: (res: ServerResponse, n: number) => void): Promise<{ base: string; healthCalls: () => number; close: () => void }> {
    let calls = 0;
    const srv = createServer((req: IncomingMessage, res: ServerResponse) => {
      req.resume();
      if (req.url === '/v2/ep/health') return health(res, ++calls);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"removed":0}');
    });
    await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
    return {
      base: `http://127.0.0.1:${(srv.address() as AddressInfo).port}/v2`,
      healthCalls: () => calls,
      close: () => {
        srv.closeAllConnections();
        srv.close();
      },
    };
  }
  const file = (durationMs: number) =>
    scenario(`purge-${durationMs}`, {
      durationMs,
      drainMs: 1000,
      endpoint: { id: 'ep' },
      traffic: [{ name: 'purge', arrival: { process: 'constant', ratePerSec: 2 }, client: { behaviour: 'purge-queue' } }],
    });
  const json = (status: number, body: string) => (res: ServerResponse) => void res.writeHead(status, { 'content-type': 'application/json' }).end(body);
  /** A RunPod-style /health: 2 jobs queued, 1 in progress on the one running worker. */
  const HEALTH = JSON.stringify({
    jobs: { completed: 0, failed: 0, inProgress: 1, inQueue: 2, retried: 0 },
    workers: { idle: 0, initializing: 0, running: 1, throttled: 0, unhealthy: 0 },
  });

  test('a 502 and a reset connection among 1 s reads of a 12.5 s run: each counted by its cause, sampling goes on, the queue is read in every window', async () => {
    // The 3rd read answers 502 (a proxy's blip), the 6th has its connection closed under it; the others answer.
    const ep = await endpoint((res, n) => {
      if (n === 3) return json(502, '<html>Bad Gateway</html>')(res);
      if (n === 6) return void res.socket?.destroy();
      json(200, HEALTH)(res);
    });
    try {
      const out = join(dir, 'blips');
      const r = await run(file(12_500), '--target', ep.base, '--api-key', KEY, '--out', out, '--health-every', '1s');
      expect(r.status, r.stderr).toBe(0);
      expect(r.stderr).not.toContain('/health sampling stopped');
      expect(r.stderr).not.toContain('reads in a row');
      const h = report(out).healthSampling!;
      expect([h.everyMs, h.stopped, h.errors, h.failed]).toEqual([1000, undefined, 2, { 502: 1, reset: 1 }]);
      // Reads at 0, 1, …, 12 s (a busy machine may skip one): all but the two failures are samples.
      expect(h.answered).toBeGreaterThanOrEqual(10);
      expect(h.answered).toBeGreaterThanOrEqual(h.requests - 3);
      expect(ep.healthCalls()).toBeGreaterThanOrEqual(h.answered + 2);
      // Both 10 s windows have samples: none reads -1.
      expect(report(out).windows!.endpoint!.queueLength).toEqual([2, 2]);
      expect(r.stdout).toContain(`  /health sampling: every 1000 ms, ${h.answered} of ${h.requests} answered, 2 without a sample (502×1, reset×1)\n`);
      const md = readFileSync(join(out, 'report.md'), 'utf8');
      expect(md).toContain(`${h.answered} of ${h.requests} reads gave a sample, 2 did not (502×1, reset×1). Sampling went on after each failure.`);
      expect(readFileSync(join(out, 'report.html'), 'utf8')).toContain('2 did not (502×1, reset×1)');
    } finally {
      ep.close();
    }
  }, 60_000);

  test.each([
    ['an error status', json(500, '{"error":"boom"}'), '500', 'answered 500'],
    ['an unknown shape', json(200, '{"status":"ok","workers":{"running":1}}'), 'body', 'answered 200 without a numeric jobs.inQueue'],
  ])(
    '%s at every read: each counted, sampling goes on to the end, one warning after 10 in a row; the run goes on (exit 0)',
    async (_what, answer, cause, last) => {
      const ep = await endpoint(answer);
      try {
        const out = join(dir, `failing-${last.replace(/\W+/g, '-')}`);
        // 100 ms reads over a 2 s run: about 20.
        const r = await run(file(2000), '--target', ep.base, '--api-key', KEY, '--out', out, '--health-every', '100ms');
        expect(r.status, r.stderr).toBe(0);
        expect(r.stderr).not.toContain('/health sampling stopped');
        const warnings = r.stderr.split('\n').filter((l) => l.includes('/health'));
        expect(warnings).toEqual([
          `loadlab: warning: /health: no sample from 10 reads in a row (the last: ${last}); reading on every 100 ms until the run ends`,
        ]);
        const rep = report(out);
        const h = rep.healthSampling!;
        expect([h.answered, h.stopped]).toEqual([0, undefined]);
        expect(h.requests).toBeGreaterThanOrEqual(10);
        expect(h.failed).toEqual({ [cause]: h.errors });
        expect(h.errors).toBeGreaterThanOrEqual(h.requests - 1);
        expect(ep.healthCalls()).toBeGreaterThanOrEqual(h.errors);
        expect(rep.windows!.endpoint).toBeUndefined();
        expect(r.stdout).toMatch(/^PASS/);
        expect(r.stdout).toContain(`${h.errors} without a sample (${cause}×${h.errors})\n`);
      } finally {
        ep.close();
      }
    },
    60_000,
  );

  test.each([
    // The rest of the API answers, so the refusal is /health's own: said at the end of the run.
    ['a wrong key for /health (401)', 401],
    ['no /health at this URL (404)', 404],
  ])(
    '%s: sampling stops after that one request with one warning naming the status; the run goes on (exit 0)',
    async (_what, status) => {
      const ep = await endpoint(json(status, '{"error":"no"}'));
      try {
        const reason = `/health answered ${status}`;
        const out = join(dir, `refused-${status}`);
        const r = await run(file(1500), '--target', ep.base, '--api-key', KEY, '--out', out, '--health-every', '100ms');
        expect(r.status, r.stderr).toBe(0);
        const warnings = r.stderr.split('\n').filter((l) => l.includes('/health'));
        expect(warnings).toEqual([`loadlab: warning: /health sampling stopped: ${reason}; the report has the samples read before`]);
        expect(ep.healthCalls()).toBe(1);
        const rep = report(out);
        expect(rep.healthSampling).toEqual({ everyMs: 100, requests: 1, answered: 0, errors: 1, failed: { [status]: 1 }, stopped: reason });
        expect(rep.windows!.endpoint).toBeUndefined();
        expect(rep.operations['purge-queue']!.requests).toBeGreaterThanOrEqual(2);
        expect(r.stdout).toMatch(/^PASS/);
        expect(r.stdout).toContain(`1 without a sample (${status}×1); stopped: ${reason}`);
        expect(readFileSync(join(out, 'report.md'), 'utf8')).toContain(`**Sampling stopped**: ${reason};`);
      } finally {
        ep.close();
      }
    },
    60_000,
  );

  test('no answer at all: every read times out and is counted, sampling goes on; the run still ends on time', async () => {
    const ep = await endpoint(() => {}); // never answers
    try {
      const out = join(dir, 'silent');
      // 100 ms period: each read gets 1 s (the floor, one read out at a time), so about 4 reads in the 4.5 s run.
      const r = await run(file(5000), '--target', ep.base, '--api-key', KEY, '--out', out, '--health-every', '100ms');
      expect(r.status, r.stderr).toBe(0);
      const rep = report(out);
      const h = rep.healthSampling!;
      expect([h.answered, h.stopped, h.failed]).toEqual([0, undefined, { timeout: h.errors }]);
      expect(h.errors).toBeGreaterThanOrEqual(3);
      // The last read may still be out as the run ends.
      expect(h.requests - h.errors).toBeLessThanOrEqual(1);
      expect(ep.healthCalls()).toBeGreaterThanOrEqual(h.errors);
      expect(r.stderr).not.toContain('/health');
      // The run ends with its last session, not later: the last arrival is at 4.5 s.
      expect(rep.elapsedMs).toBeLessThan(5500);
    } finally {
      ep.close();
    }
  }, 60_000);
});

describe('--health-every refusals (exit 2, the flag named)', () => {
  const CASES: [string[], RegExp][] = [
    [
      ['--target', 'http://127.0.0.1:9/v2', '--health-every', 'often'],
      /--health-every: a duration in whole ms, e\.g\. 5s, 200ms, 1m or 250 \(ms\), got "often"/,
    ],
    [['--target', 'http://127.0.0.1:9/v2', '--health-every=-5s'], /--health-every: a duration in whole ms.*got "-5s"/],
    [['--target', 'http://127.0.0.1:9/v2', '--health-every', '0.5ms'], /--health-every: a duration in whole ms.*got "0\.5ms"/],
    [['--target', 'http://127.0.0.1:9/v2', '--health-every', '50ms'], /--health-every: 0 \(off\) or from 100ms to 1h, got "50ms"/],
    [['--target', 'http://127.0.0.1:9/v2', '--health-every', '2h'], /--health-every: 0 \(off\) or from 100ms to 1h, got "2h"/],
    [['--health-every', '5s'], /--health-every: only with --target, without --lockstep/],
    [['--target', 'http://127.0.0.1:9/v2', '--lockstep', '--health-every', '5s'], /--health-every: only with --target, without --lockstep/],
  ];
  const result = batched(() => {
    const f = scenario('flags', {
      durationMs: 1000,
      endpoint: { id: 'ep' },
      traffic: [{ name: 'h', arrival: { process: 'constant', ratePerSec: 1 }, client: { behaviour: 'health' } }],
    });
    return CASES.map(([args]) => ({ args: ['run', f, '--api-key', KEY, ...args] }));
  });
  test.each(CASES.map(([args, msg], i) => [args.join(' '), msg, i] as const))('run %s', (_args, msg, i) => {
    const r = result(i);
    expect(r.status, r.stderr).toBe(2);
    expect(r.stderr).toMatch(msg);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });
});
