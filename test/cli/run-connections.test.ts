/**
 * `loadlab run --target URL --connections N`: the HTTP target opens at most N sockets. Checked
 * with a loopback server that counts the sockets it accepts and the requests it holds at once
 * (it answers every request `{}` after 100 ms).
 */
import { spawn, spawnSync } from 'node:child_process';
import { cliBatch } from '../helpers/cli-batch.js';
import { createServer, type Server } from 'node:http';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';

const dir = mkdtempSync(join(tmpdir(), 'loadlab-conn-'));
const _cli = (...args: string[]) =>
  spawnSync('node', ['bin/loadlab.js', 'run', ...args], { encoding: 'utf8', env: { ...process.env, CI: 'true' }, timeout: 60_000 });
/** The CLI as a child process that does not block this one (the server below runs here). */
const cliAsync = (...args: string[]) =>
  new Promise<{ status: number | null; stderr: string }>((resolve) => {
    const p = spawn('node', ['bin/loadlab.js', 'run', ...args], { env: { ...process.env, CI: 'true' }, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    p.stderr.on('data', (d: Buffer) => void (stderr += d.toString()));
    p.on('exit', (status) => resolve({ status, stderr }));
  });

let server: Server;
let base = '';
const seen = { sockets: 0, held: 0, maxHeld: 0 };

beforeAll(async () => {
  server = createServer((req, res) => {
    seen.maxHeld = Math.max(seen.maxHeld, ++seen.held);
    req.resume();
    setTimeout(() => {
      seen.held--;
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    }, 100);
  });
  server.on('connection', () => void seen.sockets++);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v2`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

/** 40 /health calls a second for 2 s, each answered in 100 ms: about 4 in flight at once. */
const scenario = join(dir, 'health.json');
writeFileSync(
  scenario,
  JSON.stringify({
    name: 'conn',
    durationMs: 2000,
    drainMs: 5000,
    // Not a latency test: a busy test machine's late timers must not make the run INVALID.
    openModel: { lateAfterMs: 1000 },
    traffic: [{ name: 'h', arrival: { process: 'constant', ratePerSec: 40 }, client: { behaviour: 'health' } }],
  }),
);

describe('loadlab run --connections', () => {
  test('caps the sockets the HTTP target opens; the default leaves 4 concurrent requests alone', async () => {
    Object.assign(seen, { sockets: 0, held: 0, maxHeld: 0 });
    const capped = await cliAsync(scenario, '--target', base, '--connections', '2', '--out', join(dir, 'capped'));
    expect(capped.status, capped.stderr).toBe(0);
    expect(seen.sockets).toBeLessThanOrEqual(2);
    expect(seen.maxHeld).toBe(2);
    const rep = JSON.parse(readFileSync(join(dir, 'capped', 'report.json'), 'utf8'));
    expect(rep.operations.health.byStatus).toEqual({ 200: 80 });
    // Requests waited for a socket: service time (actual send → answer) includes that wait.
    expect(rep.operations.health.serviceMs.summary.p99).toBeGreaterThan(150);

    Object.assign(seen, { sockets: 0, held: 0, maxHeld: 0 });
    const free = await cliAsync(scenario, '--target', base, '--out', join(dir, 'free'));
    expect(free.status, free.stderr).toBe(0);
    expect(seen.maxHeld).toBeGreaterThanOrEqual(4);
    expect(seen.sockets).toBeGreaterThanOrEqual(4);
  }, 60_000);

  test('a bad value, or one without an HTTP target, exits 2 naming the flag', () => {
    // In one child process (test/helpers/cli-batch.ts).
    const values = ['0', '1.5', 'many', '10001'];
    const rs = cliBatch([
      ...values.map((v) => ({ args: ['run', scenario, '--target', base, '--connections', v] })),
      { args: ['run', scenario, '--connections', '4'] },
      { args: ['run', scenario, '--target', base, '--lockstep', '--connections', '4'] },
    ]);
    values.forEach((v, i) => {
      expect(rs[i]!.status, v).toBe(2);
      expect(rs[i]!.stderr).toMatch(/--connections: an integer from 1 to 10000/);
    });
    const inProcess = rs[values.length]!;
    expect(inProcess.status).toBe(2);
    expect(inProcess.stderr).toMatch(/--connections: only with --target, without --lockstep/);
    expect(rs[values.length + 1]!.stderr).toMatch(/--connections: only with --target, without --lockstep/);
  });
});
