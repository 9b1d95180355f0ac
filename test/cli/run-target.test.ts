/**
 * `loadlab run --target`: what is shown of the URL (never its userinfo), which hosts count as
 * loopback (a parsed address, not a prefix), a dry run that needs no key, and a lockstep server
 * that must be at its start.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { startServe } from './serve-process.js';

const dir = mkdtempSync(join(tmpdir(), 'loadlab-target-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const env: NodeJS.ProcessEnv = { ...process.env, CI: 'true' };
delete env.RUNPOD_API_KEY;
const cli = (...args: string[]) => spawnSync('node', ['bin/loadlab.js', ...args], { encoding: 'utf8', env, timeout: 60_000 });

function scenario(name: string, ratePerSec: number, durationMs = 4000): string {
  const f = join(dir, `${name}.json`);
  writeFileSync(
    f,
    JSON.stringify({
      name,
      seed: 3,
      durationMs,
      drainMs: 10_000,
      endpoint: { id: 'ep', workersMax: 2, jobDurationMs: 300 },
      // A busy 2-core machine may send late; these tests look at the URL, not at lateness: only a send 5 s late counts.
      openModel: { lateAfterMs: 5000 },
      traffic: [
        {
          name: 'poll',
          arrival: { process: 'constant', ratePerSec },
          client: { behaviour: 'run-poll', poll: { baseMs: 200, factor: 1, maxMs: 200, jitter: 0 } },
        },
      ],
    }),
  );
  return f;
}

describe('the target URL', () => {
  test('--dry-run against a remote target needs no API key', () => {
    const r = cli('run', scenario('dry', 5), '--target', 'https://api.example.com/v2', '--dry-run');
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^plan for dry: 4 s of traffic/);
  });

  test('a host name starting with "127." is not loopback: above 1 000 requests it needs --yes', () => {
    const big = scenario('big', 300, 10_000);
    const r = cli('run', big, '--target', 'http://127.evil.com:9/v2', '--api-key', 'k');
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/requests to http:\/\/127\.evil\.com:9\/v2; add --yes to go ahead/);
  });

  test('userinfo in --target never reaches report.json, .md, .html, metrics.om, stdout or stderr', async () => {
    const srv = await startServe(['--api-key', 'k', '--speed', '10']);
    try {
      const url = srv.base.replace('http://', 'http://alice:s3cr3t-pw@');
      const out = join(dir, 'creds');
      const r = cli('run', scenario('creds', 5, 2000), '--target', url, '--api-key', 'k', '--out', out, '--junit', join(out, 'junit.xml'));
      expect(r.status, r.stderr).toBe(0);
      const files = readdirSync(out);
      expect(files).toEqual(expect.arrayContaining(['report.json', 'report.md', 'report.html', 'metrics.om', 'junit.xml']));
      for (const f of files) expect(readFileSync(join(out, f), 'utf8'), f).not.toMatch(/alice|s3cr3t/);
      expect(r.stdout + r.stderr).not.toMatch(/alice|s3cr3t/);
      expect(JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')).target.url).toBe(srv.base);
      // Errors too: a refused --yes guard quotes the URL without them.
      const g = cli('run', scenario('creds-big', 300, 10_000), '--target', 'https://bob:hunter2@runpod.example/v2', '--api-key', 'k');
      expect(g.status).toBe(2);
      expect(g.stderr).toContain('https://runpod.example/v2; add --yes');
      expect(g.stderr).not.toMatch(/bob|hunter2/);
    } finally {
      srv.stop();
    }
  }, 60_000);
});

describe('lockstep needs a server at its start', () => {
  test('a second run against the same serve --clock manual: exit 2, nothing silently wrong', async () => {
    const f = scenario('twice', 2, 10_000);
    const srv = await startServe(['--clock', 'manual', '--config', f, '--seed', '3', '--api-key', 'k']);
    try {
      const first = cli('run', f, '--target', srv.base, '--lockstep', '--api-key', 'k', '--out', join(dir, 'first'));
      expect(first.status, first.stderr).toBe(0);
      const second = cli('run', f, '--target', srv.base, '--lockstep', '--api-key', 'k', '--out', join(dir, 'second'));
      expect(second.status).toBe(2);
      expect(second.stderr).toMatch(
        /the lockstep server is not at its start \(virtual time \d+ ms, \d+ requests received, \d+ markers fired\): .*freshly started `loadlab serve --clock manual`/,
      );
      expect(readdirSync(dir)).not.toContain('second');
    } finally {
      srv.stop();
    }
  }, 60_000);
});
