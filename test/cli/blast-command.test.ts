/** `loadlab blast` against a real `loadlab serve` on 127.0.0.1: autocannon's answers become a RunResult. */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { blast } from '../../src/load/blast/blast.js';
import { startServe, type ServeProcess } from './serve-process.js';

const dir = mkdtempSync(join(tmpdir(), 'loadlab-blast-'));
const cli = (...args: string[]) =>
  spawnSync('node', ['bin/loadlab.js', 'blast', ...args], { encoding: 'utf8', env: { ...process.env, CI: 'true' }, timeout: 60_000 });
let srv: ServeProcess;
/** Limits on: `q`, one slow worker whose queue throttles past 2 jobs; `q` and `p`, /purge-queue's documented 2 per 10 s. */
let limited: ServeProcess;

beforeAll(async () => {
  const config = join(dir, 'throttled.json');
  writeFileSync(
    config,
    JSON.stringify({ seed: 1, endpoints: [{ id: 'q', workersMax: 1, jobDurationMs: 600_000, limits: { queueMin: 2, queuePerWorker: 1 } }, { id: 'p' }] }),
  );
  srv = await startServe(['--clock', 'real', '--limits', 'off', '--api-key', 'k']);
  limited = await startServe(['--clock', 'real', '--config', config, '--api-key', 'k']);
}, 120_000);
afterAll(() => {
  srv?.stop();
  limited?.stop();
});

describe('loadlab blast', () => {
  test('/run for 1 s: every answer 200 and counted once; report.json is a RunResult of kind blast', () => {
    const out = join(dir, 'run');
    const r = cli(
      '--target',
      srv.base,
      '--endpoint',
      'ep',
      '--op',
      'run',
      '--connections',
      '4',
      '--duration',
      '1',
      '--body-bytes',
      '1000',
      '--api-key',
      'k',
      '--out',
      out,
    );
    expect(r.status, r.stderr).toBe(0);
    const rep = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8'));
    expect(rep).toMatchObject({ version: 3, kind: 'blast', target: { kind: 'http', url: srv.base }, scenario: { name: 'blast-run', endpointId: 'ep' } });
    const run = rep.operations.run;
    expect(run.requests).toBeGreaterThan(100);
    expect(run.byStatus).toEqual({ 200: run.requests });
    expect(run.responseMs.count).toBe(run.requests);
    // Every recorded answer is one autocannon counted (it may count a few answers after the stop).
    expect(rep.wallClock.autocannon.total).toBeGreaterThanOrEqual(run.requests - 4);
    expect(rep.timeline.windowMs).toBe(1000);
    expect(rep.timeline.requests.reduce((a: number, b: number) => a + b, 0)).toBe(run.requests);
    expect(readFileSync(join(out, 'report.md'), 'utf8')).toMatch(/^PASS {2}\n[\s\S]*\n# loadlab blast: blast-run/);
    expect(r.stdout).toMatch(/loadlab blast run: \d+ requests in/);
  }, 30_000);
  test('/status of a job it submits first; a wrong key answers 401: exit 1 with the cause, stopped after 20 answers', () => {
    const ok = cli('--target', srv.base, '--op', 'status', '--connections', '2', '--duration', '1', '--api-key', 'k', '--out', join(dir, 'st'));
    expect(ok.status, ok.stderr).toBe(0);
    expect(Object.keys(JSON.parse(readFileSync(join(dir, 'st', 'report.json'), 'utf8')).operations.status.byStatus)).toEqual(['200']);
    const bad = cli('--target', srv.base, '--op', 'health', '--connections', '2', '--duration', '1', '--api-key', 'wrong', '--out', join(dir, 'h'));
    expect(bad.status, bad.stderr).toBe(1);
    expect(bad.stderr).toBe('loadlab: every request answered 401: check --api-key or RUNPOD_API_KEY\n');
    const rep = JSON.parse(readFileSync(join(dir, 'h', 'report.json'), 'utf8'));
    expect(Object.keys(rep.operations.health.byStatus)).toEqual(['401']);
    // 20 answers, then each connection closes at its next answer: at most one more each.
    expect(rep.operations.health.requests).toBeLessThanOrEqual(20 + 2);
    expect(rep.unreachable).toEqual({ status: 401, answers: 20, stoppedEarly: true });
  }, 30_000);
  test('429s by cause as the server names them in the body: /run past a full queue, /purge-queue past its rate (loopback: "reported")', () => {
    const run = cli(
      '--target',
      limited.base,
      '--endpoint',
      'q',
      '--op',
      'run',
      '--connections',
      '2',
      '--duration',
      '1',
      '--api-key',
      'k',
      '--out',
      join(dir, 'q'),
    );
    expect(run.status, run.stderr).toBe(0);
    const rep = JSON.parse(readFileSync(join(dir, 'q', 'report.json'), 'utf8'));
    expect(rep.target.causes).toBe('reported');
    const o = rep.operations.run;
    // One job runs, two wait; every later /run is throttled (or, past 1000 in 10 s, rate limited).
    expect(o.byStatus['200']).toBeLessThanOrEqual(o.requests - o.byStatus['429']);
    expect(o.byStatus['429']).toBeGreaterThan(50);
    expect(o.limited.queue).toBeGreaterThan(50);
    expect(o.limited.unknown).toBe(0);
    expect(o.limited.queue + o.limited.rate).toBe(o.byStatus['429']);
    expect(readFileSync(join(dir, 'q', 'report.md'), 'utf8')).toMatch(/queue/);

    const purge = cli(
      '--target',
      limited.base,
      '--endpoint',
      'q',
      '--op',
      'purge-queue',
      '--connections',
      '1',
      '--duration',
      '1',
      '--api-key',
      'k',
      '--out',
      join(dir, 'p'),
    );
    expect(purge.status, purge.stderr).toBe(0);
    const p = JSON.parse(readFileSync(join(dir, 'p', 'report.json'), 'utf8'));
    expect(p.operations['purge-queue'].byStatus['200']).toBe(2);
    expect(p.operations['purge-queue'].limited).toEqual({ rate: p.operations['purge-queue'].byStatus['429'], concurrency: 0, queue: 0, unknown: 0 });
    // Every request of the 1 s blast is inside one 10 s interval.
    expect(p.headroom.operations[0]).toMatchObject({ operation: 'purge-queue', peakPer10s: p.operations['purge-queue'].requests, ratePer10s: 2 });
  }, 30_000);

  test('against a target that does not name causes, they are inferred from what blast sent (and the report says so)', async () => {
    const r = await blast({ url: limited.base, apiKey: 'k', endpointId: 'p', op: 'purge-queue', connections: 1, durationSec: 0.5, causesReported: false });
    expect(r.target.causes).toBe('inferred');
    const o = r.operations['purge-queue']!;
    expect(o.byStatus['200']).toBe(2);
    expect(o.byStatus['429']).toBeGreaterThan(10);
    // The documented limit is 2 per 10 s: from the third request on, blast itself sent that many.
    expect(o.limited).toEqual({ rate: o.byStatus['429'], concurrency: 0, queue: 0, unknown: 0 });
  }, 30_000);

  test('bad usage exits 2 naming the flag', () => {
    const r = cli('--target', srv.base, '--op', 'nope');
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/--op: must be one of run, runsync, status/);
    expect(cli('--target', srv.base, '--connections', '0').stderr).toMatch(/--connections/);
  });
});
