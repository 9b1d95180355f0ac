/**
 * Ctrl-C during `loadlab run`, as a user presses it: the run stops, its reports are written from
 * what was recorded and marked interrupted, the verdict is INVALID and the exit code 130. Off a
 * terminal and outside CI, progress comes as plain lines (no \r, no escape codes). In-process (a
 * 24 h virtual day, interrupted once its first progress line shows) and against a loopback serve.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, test } from 'vitest';
import { startServe, type ServeProcess } from './serve-process.js';

const dir = mkdtempSync(join(tmpdir(), 'loadlab-interrupt-'));
const children: ChildProcess[] = [];
let serve: ServeProcess | undefined;
afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  serve?.stop();
  serve = undefined;
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Run {
  child: ChildProcess;
  stdout: string;
  stderr: string;
  exited: Promise<number | null>;
}

/** `loadlab run …` outside CI, stderr a pipe (not a terminal). */
function run(args: string[]): Run {
  const env = { ...process.env };
  delete env.CI;
  delete env.GITHUB_STEP_SUMMARY;
  const child = spawn('node', ['bin/loadlab.js', 'run', ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  const r: Run = { child, stdout: '', stderr: '', exited: new Promise((resolve) => child.on('exit', (code) => resolve(code))) };
  child.stdout!.on('data', (d: Buffer) => void (r.stdout += d.toString()));
  child.stderr!.on('data', (d: Buffer) => void (r.stderr += d.toString()));
  return r;
}

/** Resolves once `ready()` holds (checked every 100 ms); rejects after `ms` or when the run ended first. */
async function until(r: Run, ready: () => boolean | Promise<boolean>, ms: number, what: string): Promise<void> {
  for (let waited = 0; !(await ready()); waited += 100) {
    if (r.child.exitCode !== null) throw new Error(`the run ended (${r.child.exitCode}) before ${what}: ${r.stderr}`);
    if (waited >= ms) throw new Error(`no ${what} within ${ms / 1000} s: ${r.stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The exit code, or a failure after 30 s (the run must stop promptly). */
function exitWithin30s(r: Run): Promise<number | null> {
  return Promise.race([
    r.exited,
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`still running 30 s after SIGINT: ${r.stderr}`)), 30_000)),
  ]);
}

describe('Ctrl-C during loadlab run', () => {
  test('in-process: reports written and marked interrupted, INVALID, exit 130; progress as plain lines', async () => {
    const out = join(dir, 'day');
    const r = run(['scenarios/diurnal-day.yaml', '--out', out]);
    // The first plain progress line comes after 10 s of wall time; the 24 h day takes longer.
    await until(r, () => /^traffic +\d+%/m.test(r.stderr), 60_000, 'progress line');
    r.child.kill('SIGINT');
    expect(await exitWithin30s(r)).toBe(130);
    // biome-ignore lint/suspicious/noControlCharactersInRegex: no carriage return or escape sequence may reach a non-terminal
    expect(r.stderr).not.toMatch(/[\r\x1b]/);
    expect(r.stderr).toMatch(/^traffic +\d+% {2}wall 1\ds {2}ETA \S+ {2}requests \S+ {2}429s \S+ {2}queue \S+ {2}workers \S+\n/);
    expect(r.stderr).toContain('loadlab: interrupted: stopping the run and writing its reports (Ctrl-C again to quit at once)\n');
    expect(r.stderr).toMatch(/\nloadlab: interrupted by the user at t=[\d ]+ s; the figures cover the run up to then\n$/);
    expect(r.stdout.split('\n')[0]).toMatch(/^INVALID: interrupted by the user at t=[\d ]+ s/);
    const rep = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8'));
    expect(rep.interrupted.atMs).toBeGreaterThan(0);
    expect(rep.interrupted.atMs).toBeLessThan(86_400_000);
    expect(rep.elapsedMs).toBe(rep.interrupted.atMs);
    expect(readFileSync(join(out, 'report.md'), 'utf8')).toMatch(/^INVALID: interrupted by the user[\s\S]*\*\*Interrupted by the user at t=\d+ s\*\*/);
    expect(readFileSync(join(out, 'metrics.om'), 'utf8')).toMatch(/# EOF\n$/);
  }, 120_000);

  test('against a loopback serve: the wall-clock run stops at once, exit 130', async () => {
    const cfg = join(dir, 'serve.json');
    writeFileSync(cfg, JSON.stringify({ apiKeys: ['k'], endpoints: [{ id: 'ep', workersMax: 5 }] }));
    serve = await startServe(['--config', cfg]);
    const f = join(dir, 'long.json');
    writeFileSync(
      f,
      JSON.stringify({
        name: 'long-http',
        durationMs: 300_000,
        endpoint: { id: 'ep' },
        openModel: { lateAfterMs: 1000 },
        traffic: [
          {
            name: 'poll',
            arrival: { process: 'constant', ratePerSec: 5 },
            client: { behaviour: 'run-poll', poll: { baseMs: 200, factor: 1, maxMs: 200, jitter: 0 }, payload: { sim: { durationMs: 100 } } },
          },
        ],
      }),
    );
    const out = join(dir, 'http');
    const r = run([f, '--target', serve.base, '--api-key', 'k', '--out', out]);
    const health = `${serve.base}/ep/health`;
    // Interrupted once serve has seen a job: the run is under way.
    await until(
      r,
      async () => {
        const h = (await (await fetch(health, { headers: { authorization: 'Bearer k' } })).json()) as { jobs: Record<string, number> };
        return Object.values(h.jobs).some((n) => n > 0);
      },
      30_000,
      'job at serve',
    );
    r.child.kill('SIGINT');
    expect(await exitWithin30s(r)).toBe(130);
    const rep = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8'));
    expect(rep.target.kind).toBe('http');
    expect(rep.interrupted.atMs).toBeGreaterThan(0);
    expect(rep.interrupted.atMs).toBeLessThan(60_000);
    expect(rep.flows.poll.sessions).toBeGreaterThan(0);
    expect(r.stdout.split('\n')[0]).toMatch(/^INVALID: interrupted by the user at t=\d+ s/);
  }, 120_000);
});
