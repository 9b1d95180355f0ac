/**
 * The real CLI process (CONTRACT §1–§2): `node bin/loadlab.js serve …` after a build. The first
 * stdout line holds the base URL; SIGTERM answers held requests and exits 0; bad configs exit 2.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { describe, expect, it } from 'vitest';

const ROOT = new URL('../../', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'loadlab-serve-'));

interface Proc {
  child: ChildProcess;
  firstLine: Promise<string>;
  stderr: () => string;
  exit: Promise<number | null>;
}

function start(args: string[], env: Record<string, string> = {}): Proc {
  const child = spawn(process.execPath, ['bin/loadlab.js', 'serve', ...args], { cwd: ROOT, env: { ...process.env, ...env }, stdio: 'pipe' });
  let out = '';
  let err = '';
  child.stderr!.on('data', (c) => (err += c));
  const firstLine = new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (c) => {
      out += c;
      const nl = out.indexOf('\n');
      if (nl >= 0) resolve(out.slice(0, nl));
    });
    child.once('exit', () => reject(new Error(`exited before printing: ${err}`)));
  });
  firstLine.catch(() => undefined); // a process expected to fail never prints; its test reads `exit`
  const exit = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  return { child, firstLine, stderr: () => err, exit };
}

const get = async (url: string, key = 'k') => {
  const r = await request(url, { headers: { authorization: `Bearer ${key}` } });
  return { status: r.statusCode, body: (await r.body.json()) as any };
};

describe('loadlab serve (the process)', () => {
  it('prints the base URL first, serves, and exits 0 on SIGTERM after answering held requests', async () => {
    const p = start(['--port', '0', '--clock', 'manual', '--api-key', 'k', '--seed', '3']);
    const line = await p.firstLine;
    const base = /(http:\/\/127\.0\.0\.1:\d+\/v2)/.exec(line)?.[1];
    expect(base).toBeDefined();
    expect((await get(`${base}/ep/health`)).status).toBe(200);
    expect((await get(`${base}/ep/health`, 'wrong')).status).toBe(401);
    const held = request(`${base}/ep/runsync`, { method: 'POST', body: '{"input":{}}', headers: { authorization: 'k' } })
      .then(async (r) => ({ status: r.statusCode, body: (await r.body.json()) as any }))
      .catch((e: Error) => ({ status: 0, body: e.message }));
    // SIGTERM once the runsync is held (its job counted by /health), however slow the machine.
    for (let i = 0; ; i++) {
      const h = (await get(`${base}/ep/health`)).body;
      if (h.jobs.inQueue + h.jobs.inProgress > 0) break;
      if (i > 1000) throw new Error('the runsync never reached serve');
      await new Promise((r) => setTimeout(r, 10));
    }
    p.child.kill('SIGTERM');
    expect(await p.exit).toBe(0);
    expect(await held).toMatchObject({ status: 503, body: { code: 'SRV_ERR_SHUTTING_DOWN' } });
    expect(p.stderr()).not.toContain(' k ');
  });

  it('warns on stderr when no key is configured, and never prints keys', async () => {
    const p = start(['--port', '0'], { LOADLAB_API_KEY: '' });
    await p.firstLine;
    p.child.kill('SIGINT');
    expect(await p.exit).toBe(0);
    expect(p.stderr()).toContain('warning: no API key configured');
  });

  it("serves a YAML config and a scenario file's endpoint section", async () => {
    const cfg = join(dir, 'sim.yaml');
    writeFileSync(cfg, 'seed: 7\napiKeys: [secret-key]\nendpoints:\n  - id: alpha\n    workersMax: 2\n  - id: beta\n');
    const p = start(['--config', cfg, '--port', '0', '--clock', 'manual']);
    const line = await p.firstLine;
    expect(line).toContain('endpoints: alpha, beta');
    expect(line).toContain('seed 7');
    p.child.kill('SIGTERM');
    expect(await p.exit).toBe(0);
    expect(p.stderr()).not.toContain('secret-key');

    const scen = join(dir, 'scenario.json');
    writeFileSync(scen, JSON.stringify({ name: 'x', seed: 11, endpoint: { workersMax: 1 }, traffic: { whatever: true } }));
    const q = start(['--config', scen, '--port', '0', '--api-key', 'k']);
    const base = /(http:\S+\/v2)/.exec(await q.firstLine)![1];
    expect((await get(`${base}/ep/health`)).body.workers).toBeDefined();
    q.child.kill('SIGTERM');
    expect(await q.exit).toBe(0);
  });

  it('exits 2 naming the file, the field path and the reason', async () => {
    const bad = join(dir, 'bad.yaml');
    writeFileSync(bad, 'endpoints:\n  - id: ep\n    workersMax: -1\n    colour: red\n');
    const p = start(['--config', bad, '--port', '0']);
    expect(await p.exit).toBe(2);
    expect(p.stderr()).toContain(`${bad}: endpoints.0.colour: Unrecognized key`);
    expect(p.stderr()).toContain(`${bad}: endpoints.0.workersMax:`);
    const q = start(['--port', '0', '--clock', 'sundial']);
    expect(await q.exit).toBe(2);
  });
});
