/** `loadlab blast` against a real `loadlab serve` on 127.0.0.1: autocannon's answers become a RunResult. */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startServe, type ServeProcess } from './serve-process.js';

const dir = mkdtempSync(join(tmpdir(), 'loadlab-blast-'));
const cli = (...args: string[]) => spawnSync('node', ['bin/loadlab.js', 'blast', ...args], { encoding: 'utf8', env: { ...process.env, CI: 'true' }, timeout: 60_000 });
let srv: ServeProcess;

beforeAll(async () => {
  srv = await startServe(['--clock', 'real', '--limits', 'off', '--api-key', 'k']);
}, 120_000);
afterAll(() => srv?.stop());

describe('loadlab blast', () => {
  test('/run for 1 s: every answer 200 and counted once; report.json is a RunResult of kind blast', () => {
    const out = join(dir, 'run');
    const r = cli('--target', srv.base, '--endpoint', 'ep', '--op', 'run', '--connections', '4', '--duration', '1', '--body-bytes', '1000', '--api-key', 'k', '--out', out);
    expect(r.status, r.stderr).toBe(0);
    const rep = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8'));
    expect(rep).toMatchObject({ version: 1, kind: 'blast', target: { kind: 'http', url: srv.base }, scenario: { name: 'blast-run', endpointId: 'ep' } });
    const run = rep.operations.run;
    expect(run.requests).toBeGreaterThan(100);
    expect(run.byStatus).toEqual({ 200: run.requests });
    expect(run.responseMs.count).toBe(run.requests);
    // Every recorded answer is one autocannon counted (it may count a few answers after the stop).
    expect(rep.wallClock.autocannon.total).toBeGreaterThanOrEqual(run.requests - 4);
    expect(rep.timeline.windowMs).toBe(1000);
    expect(rep.timeline.requests.reduce((a: number, b: number) => a + b, 0)).toBe(run.requests);
    expect(readFileSync(join(out, 'report.md'), 'utf8')).toMatch(/^# loadlab blast: blast-run/);
    expect(r.stdout).toMatch(/loadlab blast run: \d+ requests in/);
  }, 30_000);
  test('/status of a job it submits first; a wrong key answers 401 on every request', () => {
    const ok = cli('--target', srv.base, '--op', 'status', '--connections', '2', '--duration', '1', '--api-key', 'k', '--out', join(dir, 'st'));
    expect(ok.status, ok.stderr).toBe(0);
    expect(Object.keys(JSON.parse(readFileSync(join(dir, 'st', 'report.json'), 'utf8')).operations.status.byStatus)).toEqual(['200']);
    const bad = cli('--target', srv.base, '--op', 'health', '--connections', '2', '--duration', '1', '--api-key', 'wrong', '--out', join(dir, 'h'));
    expect(bad.status, bad.stderr).toBe(0);
    expect(Object.keys(JSON.parse(readFileSync(join(dir, 'h', 'report.json'), 'utf8')).operations.health.byStatus)).toEqual(['401']);
  }, 30_000);
  test('bad usage exits 2 naming the flag', () => {
    const r = cli('--target', srv.base, '--op', 'nope');
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/--op: must be one of run, runsync, status/);
    expect(cli('--target', srv.base, '--connections', '0').stderr).toMatch(/--connections/);
  });
});
