/**
 * `loadlab run --target URL --metrics-listen HOST:PORT`, as Prometheus sees it: a real `serve` on
 * loopback, the built CLI, and `/metrics` scraped over HTTP while the run goes on and after it
 * ends. Counters grow, every series names its endpoint and scenario, histograms are cumulative,
 * the last scrape's totals are report.json's, and neither the URL's credentials nor the key show.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, describe, expect, test } from 'vitest';
import { CLIENT_METRIC, DURATION_BUCKETS_S, METRIC, PROCESS_METRIC } from '../../src/contract/metric-names.js';
import { bucketCounts } from '../../src/report/histogram-buckets.js';
import type { RunResult } from '../../src/report/run-result.js';
import { parseProm, select, value, type PromText } from '../telemetry/prom-text.js';
import { startServe } from './serve-process.js';

const dir = mkdtempSync(join(tmpdir(), 'loadlab-live-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const KEY = 'sekrit-key-4711';
const env: NodeJS.ProcessEnv = { ...process.env, CI: 'true' };
delete env.RUNPOD_API_KEY;
const cli = (...args: string[]) => spawnSync('node', ['bin/loadlab.js', ...args], { encoding: 'utf8', env, timeout: 60_000 });

/**
 * A run with its CLI, a serve and the scrapes on a busy 2-core machine may send late; these tests
 * look at the metrics and the exit code, not at lateness: only a send 5 s late counts (the default
 * 10 ms made 3 late arrivals of 30 an INVALID run, exit 1, beside other tests).
 */
const LATE = { lateAfterMs: 5000 };

/** 5 s of traffic: run-poll jobs at 4/s (the endpoint gauges come from the runner's own /health reads: --health-every). */
const file = join(dir, 'live.json');
writeFileSync(
  file,
  JSON.stringify({
    name: 'live-test',
    seed: 3,
    durationMs: 5000,
    drainMs: 10_000,
    endpoint: { id: 'ep', workersMax: 2, jobDurationMs: 200 },
    openModel: LATE,
    traffic: [
      {
        name: 'poll',
        arrival: { process: 'constant', ratePerSec: 4 },
        client: { behaviour: 'run-poll', poll: { baseMs: 200, factor: 1, maxMs: 200, jitter: 0 } },
      },
    ],
  }),
);

const total = (name: string) => `${name}_total`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function get(url: string): Promise<{ status: number; type: string; text: string }> {
  const r = await request(url);
  return { status: r.statusCode, type: String(r.headers['content-type']), text: await r.body.text() };
}

describe('loadlab run --metrics-listen', () => {
  test("scraped during and after a run over HTTP: growing counters, labelled families, cumulative histograms, endpoint gauges as serve's, final totals = report.json, no secrets", async () => {
    const srv = await startServe(['--config', file, '--api-key', KEY]);
    const serveMetrics = srv.base.replace(/\/v2$/, '/metrics');
    const out = join(dir, 'out');
    const target = srv.base.replace('http://', 'http://alice:s3cr3t-pw@');
    const child = spawn(
      'node',
      ['bin/loadlab.js', 'run', file, '--target', target, '--api-key', KEY, '--out', out, '--metrics-listen', '127.0.0.1:0', '--health-every', '250ms'],
      { env, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => void (stderr += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      let url: string | undefined;
      for (let i = 0; i < 150 && !url; i++, await sleep(100)) url = /live metrics at (http:\/\/127\.0\.0\.1:\d+\/metrics)/.exec(stderr)?.[1];
      expect(url, stderr).toBeDefined();

      // Scrape every 250 ms until the end time shows (bounded: 60 s), serve's /metrics at the same moment.
      const texts: string[] = [];
      const workers: { runner: number | undefined; serve: number }[] = [];
      let last: PromText | undefined;
      for (let i = 0; i < 240; i++, await sleep(250)) {
        const [r, s] = await Promise.all([get(url!), get(serveMetrics)]);
        const states = (p: PromText, name: string) => select(p, name).reduce((n, x) => n + x.value, 0);
        const runner = parseProm(r.text);
        workers.push({
          runner: select(runner, CLIENT_METRIC.endpointWorkers).length ? states(runner, CLIENT_METRIC.endpointWorkers) : undefined,
          serve: states(parseProm(s.text), METRIC.workers),
        });
        expect(r.status).toBe(200);
        expect(r.type).toMatch(/^text\/plain; version=0\.0\.4/);
        texts.push(r.text);
        last = parseProm(r.text);
        if (value(last, CLIENT_METRIC.runEndTime) !== undefined) break;
      }
      expect(await exited, stderr).toBe(0);
      const final = last!;
      expect(value(final, CLIENT_METRIC.runEndTime)).toBeGreaterThanOrEqual(value(final, CLIENT_METRIC.runStartTime)!);

      // Counters grow while it runs: requests at a scrape during the traffic < at the end.
      const during = texts.map(parseProm).map((p) => select(p, total(CLIENT_METRIC.requests)).reduce((n, s) => n + s.value, 0));
      const firstSome = during.findIndex((n) => n > 0);
      expect(firstSome).toBeGreaterThanOrEqual(0);
      expect(during.at(-1)!).toBeGreaterThan(during[firstSome]!);
      for (let i = 1; i < during.length; i++) expect(during[i]!).toBeGreaterThanOrEqual(during[i - 1]!);

      // Every loadlab series says which endpoint and scenario it is from.
      for (const s of final.samples.filter((x) => x.name.startsWith('loadlab_'))) {
        expect([s.name, s.labels.endpoint, s.labels.scenario]).toEqual([s.name, 'ep', 'live-test']);
      }
      expect(select(final, `${CLIENT_METRIC.run}_info`)[0]!.labels).toEqual({
        endpoint: 'ep',
        scenario: 'live-test',
        seed: '3',
        kind: 'run',
        target: 'http',
        causes: 'reported',
      });
      expect(final.types.get(total(CLIENT_METRIC.requests))).toBe('counter');
      expect(final.types.get(CLIENT_METRIC.responseSeconds)).toBe('histogram');
      for (const name of [
        CLIENT_METRIC.endpointQueueJobs,
        CLIENT_METRIC.endpointJobsInSystem,
        CLIENT_METRIC.queueJobsMax,
        PROCESS_METRIC.residentMemory,
        PROCESS_METRIC.heapUsed,
      ]) {
        expect(select(final, name), name).toHaveLength(1);
      }
      expect(
        select(final, CLIENT_METRIC.endpointWorkers)
          .map((s) => s.labels.state)
          .sort(),
      ).toEqual(['idle', 'initializing', 'running', 'throttled', 'unhealthy']);
      // The endpoint gauges are serve's own (the runner's /health reads, every 250 ms): wherever serve's
      // worker count held over the two scrapes before (> one read period), the runner shows the same.
      const held = workers.filter((w, i) => i >= 2 && w.runner !== undefined && w.serve === workers[i - 1]!.serve && w.serve === workers[i - 2]!.serve);
      expect(held.length, JSON.stringify(workers)).toBeGreaterThanOrEqual(5);
      expect(held.map((w) => w.runner)).toEqual(held.map((w) => w.serve));
      expect(Math.max(...held.map((w) => w.serve))).toBeGreaterThan(0);
      expect(value(final, CLIENT_METRIC.inFlightMax, { operation: 'status' })).toBe(0);
      expect(value(final, CLIENT_METRIC.limit, { limit: 'workers' })).toBe(2);
      expect(value(final, CLIENT_METRIC.limit, { limit: 'queue' })).toBeGreaterThan(0);
      expect(value(final, CLIENT_METRIC.limit, { limit: 'rate', operation: 'run' })).toBeGreaterThan(0);

      // The final totals are report.json's.
      const rep = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as RunResult;
      for (const [op, o] of Object.entries(rep.operations)) {
        expect(value(final, total(CLIENT_METRIC.requests), { operation: op }), op).toBe(o.requests);
        for (const [status, n] of Object.entries(o.byStatus))
          expect(value(final, total(CLIENT_METRIC.responses), { operation: op, status }), `${op} ${status}`).toBe(n);
        expect(select(final, total(CLIENT_METRIC.responses), { operation: op })).toHaveLength(Object.keys(o.byStatus).length);
        // Histograms: metrics.om's bucket rule on report.json's HDR histogram; cumulative, +Inf = _count.
        const { cumulative } = bucketCounts(
          o.responseMs,
          DURATION_BUCKETS_S.map((s) => s * 1000),
        );
        const buckets = select(final, `${CLIENT_METRIC.responseSeconds}_bucket`, { operation: op });
        expect(buckets.map((b) => b.labels.le)).toEqual([...DURATION_BUCKETS_S.map(String), '+Inf']);
        expect(buckets.map((b) => b.value)).toEqual([...cumulative, o.responseMs.count]);
        for (let j = 1; j < buckets.length; j++) expect(buckets[j]!.value).toBeGreaterThanOrEqual(buckets[j - 1]!.value);
        expect(value(final, `${CLIENT_METRIC.responseSeconds}_count`, { operation: op })).toBe(o.responseMs.count);
      }
      expect(value(final, total(CLIENT_METRIC.responses2xx))).toBe(rep.timeline.responses2xx.reduce((a, b) => a + b, 0));
      expect(value(final, METRIC.jobsAccepted)).toBe(rep.jobs.accepted);
      expect(value(final, total(CLIENT_METRIC.sessions), { flow: 'poll', outcome: 'COMPLETED' })).toBe(rep.flows.poll!.outcomes.COMPLETED);
      const turnaround = select(final, `${CLIENT_METRIC.turnaroundSeconds}_bucket`, { flow: 'poll' });
      expect(turnaround.at(-1)!.value).toBe(rep.flows.poll!.jobs!.turnaroundMs.count);
      expect(value(final, `${CLIENT_METRIC.turnaroundSeconds}_count`, { flow: 'poll' })).toBe(rep.flows.poll!.jobs!.turnaroundMs.count);

      // Neither the URL's userinfo, the key nor the target's address appears in any scrape.
      const target = new URL(srv.base);
      for (const t of texts) expect(t).not.toMatch(new RegExp(`alice|s3cr3t|${KEY}|${target.host.replace(/\./g, '\\.')}`));
      expect(stderr).toMatch(/keeping http:\/\/127\.0\.0\.1:\d+\/metrics up for a final scrape/);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
      srv.stop();
    }
  }, 90_000);

  test('only GET /metrics: anything else is 404 with a JSON body', async () => {
    const srv = await startServe(['--api-key', KEY]);
    const child = spawn(
      'node',
      ['bin/loadlab.js', 'run', file, '--target', srv.base, '--api-key', KEY, '--out', join(dir, 'paths'), '--metrics-listen', ':0'],
      { env, stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => void (stderr += d.toString()));
    try {
      let url: string | undefined;
      for (let i = 0; i < 150 && !url; i++, await sleep(100)) url = /live metrics at (http:\/\/127\.0\.0\.1:\d+)\/metrics/.exec(stderr)?.[1];
      expect(url, stderr).toBeDefined();
      const r = await get(`${url}/v2/ep/health`);
      expect(r.status).toBe(404);
      expect(r.type).toMatch(/^application\/json/);
      expect(JSON.parse(r.text).error).toMatch(/GET \/metrics/);
      const post = await request(`${url}/metrics`, { method: 'POST', body: '' });
      expect(post.statusCode).toBe(405);
      expect(JSON.parse(await post.body.text()).error).toMatch(/use GET/);
    } finally {
      child.kill('SIGKILL');
      srv.stop();
    }
  }, 60_000);
});

describe('after the run', () => {
  test("unscraped, it waits for a final scrape; Ctrl-C ends the wait and the command exits with its verdict's code", async () => {
    const short = join(dir, 'short.json');
    writeFileSync(
      short,
      JSON.stringify({
        name: 'live-short',
        seed: 3,
        durationMs: 1500,
        drainMs: 5000,
        endpoint: { id: 'ep', workersMax: 2, jobDurationMs: 100 },
        openModel: LATE,
        traffic: [
          {
            name: 'poll',
            arrival: { process: 'constant', ratePerSec: 4 },
            client: { behaviour: 'run-poll', poll: { baseMs: 100, factor: 1, maxMs: 100, jitter: 0 } },
          },
        ],
      }),
    );
    const srv = await startServe(['--api-key', KEY]);
    const child = spawn(
      'node',
      ['bin/loadlab.js', 'run', short, '--target', srv.base, '--api-key', KEY, '--out', join(dir, 'short'), '--metrics-listen', ':0'],
      { env, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stderr = '';
    let stdout = '';
    child.stderr.on('data', (d: Buffer) => void (stderr += d.toString()));
    child.stdout.on('data', (d: Buffer) => void (stdout += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      for (let i = 0; i < 300 && !/up for a final scrape/.test(stderr); i++) await sleep(100);
      expect(stderr).toMatch(/up for a final scrape \(at most 15 s; Ctrl-C ends the wait\)/);
      expect(stdout).toMatch(/^PASS/m);
      await sleep(500);
      expect(child.exitCode, 'still waiting for its final scrape').toBe(null);
      child.kill('SIGINT');
      const code = await Promise.race([exited, sleep(10_000).then(() => 'still running 10 s after SIGINT')]);
      expect(code).toBe(0);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
      srv.stop();
    }
  }, 60_000);
});

describe('--metrics-listen refusals (exit 2, the flag named)', () => {
  test('a bad address, a bad port, no --target', () => {
    for (const [v, msg] of [
      ['abc', /--metrics-listen: HOST:PORT, e\.g\. 127\.0\.0\.1:9464.*got "abc"/],
      ['127.0.0.1:65536', /--metrics-listen: the port must be an integer from 0 to 65535/],
      ['[not-v6]:9464', /--metrics-listen: HOST:PORT/],
    ] as const) {
      const r = cli('run', file, '--target', 'http://127.0.0.1:9/v2', '--api-key', KEY, '--metrics-listen', v);
      expect(r.status, v).toBe(2);
      expect(r.stderr, v).toMatch(msg);
    }
    const r = cli('run', file, '--metrics-listen', '127.0.0.1:0');
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/--metrics-listen needs --target: the embedded simulator runs in virtual time.*metrics\.om/);
  });

  test('a port in use: exit 2 naming it, before any request is sent', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = (taken.address() as AddressInfo).port;
    try {
      const srv = await startServe(['--api-key', KEY]);
      try {
        const r = cli('run', file, '--target', srv.base, '--api-key', KEY, '--out', join(dir, 'busy'), '--metrics-listen', `127.0.0.1:${port}`);
        expect(r.status).toBe(2);
        expect(r.stderr).toContain(`--metrics-listen: 127.0.0.1:${port} is in use`);
        const m = await get(srv.base.replace(/\/v2$/, '/metrics'));
        expect(m.text).not.toMatch(new RegExp(`^${METRIC.jobsAccepted}\\{[^}]*\\} [1-9]`, 'm'));
      } finally {
        srv.stop();
      }
    } finally {
      taken.close();
    }
  }, 60_000);
});
