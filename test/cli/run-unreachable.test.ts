/**
 * A run that cannot reach its target fails (exit 1, the cause in one line) after the first 20
 * answers that all say so — a wrong key (401), a wrong endpoint id (404), a URL nothing listens
 * on — instead of hammering the target and passing with "0 jobs accepted".
 */
import { spawnSync } from 'node:child_process';
import { createServer } from 'node:net';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startServe, type ServeProcess } from './serve-process.js';

const dir = mkdtempSync(join(tmpdir(), 'loadlab-unreachable-'));
let srv: ServeProcess;
beforeAll(async () => {
  srv = await startServe(['--api-key', 'k']);
}, 60_000);
afterAll(() => {
  srv?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const env: NodeJS.ProcessEnv = { ...process.env, CI: 'true' };
delete env.RUNPOD_API_KEY;
const run = (out: string, ...args: string[]) =>
  spawnSync('node', ['bin/loadlab.js', 'run', scenario, '--out', join(dir, out), '--junit', join(dir, out, 'junit.xml'), ...args], {
    encoding: 'utf8',
    env: { ...env, GITHUB_STEP_SUMMARY: join(dir, `${out}.md`) },
    timeout: 60_000,
  });
const read = (out: string, f: string) => readFileSync(join(dir, out, f), 'utf8');

/** 20 arrivals a second for 10 s: 200 sessions if nothing stopped it. */
const scenario = join(dir, 'poll.json');
writeFileSync(
  scenario,
  JSON.stringify({
    name: 'unreachable',
    durationMs: 10_000,
    drainMs: 5000,
    endpoint: { id: 'ep', workersMax: 2, jobDurationMs: 100 },
    traffic: [
      {
        name: 'poll',
        arrival: { process: 'constant', ratePerSec: 20 },
        client: { behaviour: 'run-poll', poll: { baseMs: 100, factor: 1, maxMs: 100, jitter: 0 } },
      },
    ],
    thresholds: ['jobs_failed == 0'],
  }),
);

/** The run stopped after 20 such answers: what it sent is those and the ones in flight then. */
function expectStoppedEarly(out: string, status: number): void {
  const rep = JSON.parse(read(out, 'report.json'));
  expect(rep.unreachable).toMatchObject({ status, answers: 20, stoppedEarly: true });
  expect(rep.operations.run.requests).toBeLessThanOrEqual(20 + rep.headroom.operations[0].peakInFlight);
  expect(rep.arrivals.intended).toBeLessThan(40);
  expect(read(out, 'report.md')).toMatch(/^INVALID: /);
  expect(read(out, 'junit.xml')).toMatch(/name="run is valid" time="0">\n {6}<failure message="[^"]+" type="invalid">/);
  expect(readFileSync(join(dir, `${out}.md`), 'utf8')).toMatch(/^### loadlab run unreachable: INVALID\n/);
}

describe('a run that cannot reach its target', () => {
  test('a wrong key (401 on every request): exit 1 with what to check, at most ~20 requests sent', () => {
    const r = run('key', '--target', srv.base, '--api-key', 'wrong');
    expect(r.status).toBe(1);
    expect(r.stderr).toBe('loadlab: every request answered 401: check --api-key or RUNPOD_API_KEY\n');
    expect(r.stdout.split('\n')[0]).toBe('INVALID: every request answered 401: check --api-key or RUNPOD_API_KEY');
    expectStoppedEarly('key', 401);
  });

  test('a wrong endpoint id (404 on every request): exit 1 naming --endpoint', () => {
    const r = run('endpoint', '--target', srv.base, '--api-key', 'k', '--endpoint', 'nope');
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/^loadlab: every request answered 404: check --endpoint \/ the endpoint id[^\n]*\n$/);
    expectStoppedEarly('endpoint', 404);
  });

  test('nothing listens at the URL (transport errors): exit 1, "the target URL is unreachable: <error>"', async () => {
    // A port that was free a moment ago and is closed now.
    const port = await new Promise<number>((resolve) => {
      const s = createServer().listen(0, '127.0.0.1', () => {
        const p = (s.address() as { port: number }).port;
        s.close(() => resolve(p));
      });
    });
    const r = run('refused', '--target', `http://127.0.0.1:${port}/v2`);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/^loadlab: the target URL is unreachable: .*ECONNREFUSED.*\n$/);
    expectStoppedEarly('refused', 0);
  });

  test('blast against a wrong endpoint id: exit 1 with the cause, stopped after 20 answers', () => {
    const out = join(dir, 'blast');
    const r = spawnSync(
      'node',
      [
        'bin/loadlab.js',
        'blast',
        '--target',
        srv.base,
        '--api-key',
        'k',
        '--endpoint',
        'nope',
        '--op',
        'health',
        '--connections',
        '2',
        '--duration',
        '5',
        '--out',
        out,
      ],
      { encoding: 'utf8', env, timeout: 60_000 },
    );
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/^loadlab: every request answered 404: check --endpoint/);
    const rep = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8'));
    expect(rep.unreachable).toEqual({ status: 404, answers: 20, stoppedEarly: true });
    expect(rep.operations.health.requests).toBeLessThanOrEqual(20 + 2);
  });

  test('the right key and endpoint: the same scenario is reachable and passes', () => {
    const f = join(dir, 'short.json');
    writeFileSync(f, JSON.stringify({ ...JSON.parse(readFileSync(scenario, 'utf8')), durationMs: 1000, openModel: { lateAfterMs: 1000 } }));
    const r = spawnSync('node', ['bin/loadlab.js', 'run', f, '--target', srv.base, '--api-key', 'k', '--out', join(dir, 'ok')], {
      encoding: 'utf8',
      env,
      timeout: 60_000,
    });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout.split('\n')[0]).toBe('PASS');
    expect(JSON.parse(read('ok', 'report.json')).unreachable).toBeUndefined();
  });
});
