/**
 * Load-balancing endpoints through the built CLI: a queue behaviour aimed at one exits 2 naming
 * it; `serve` prints each endpoint's base URL after its first line; `loadlab run` against that
 * base (and against serve's /v2 URL, the base derived), over HTTP and in lockstep.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';

const dir = mkdtempSync(join(tmpdir(), 'loadlab-lb-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const env: NodeJS.ProcessEnv = { ...process.env, CI: 'true' };
delete env.RUNPOD_API_KEY;
const cli = (...args: string[]) => spawnSync('node', ['bin/loadlab.js', ...args], { encoding: 'utf8', env, timeout: 60_000 });

function file(name: string, content: unknown): string {
  const f = join(dir, name);
  writeFileSync(f, JSON.stringify(content));
  return f;
}

const lbScenario = (durationMs: number) =>
  file(`lb-${durationMs}.json`, {
    name: 'lb',
    durationMs,
    drainMs: 10_000,
    openModel: { lateAfterMs: 5000 },
    endpoint: { id: 'lb', type: 'load-balancer' },
    traffic: [
      { name: 'chat', arrival: { process: 'constant', ratePerSec: 4 }, client: { behaviour: 'openai-chat', stream: true } },
      { name: 'generate', arrival: { process: 'constant', ratePerSec: 4 }, client: { behaviour: 'http', path: '/generate', body: { prompt: 'a #{{seq}}' } } },
    ],
  });

/** `loadlab serve` of one load-balancing endpoint: its stdout lines once it listens, and a stop. */
function serve(args: string[]): Promise<{ lines: string[]; stop(): void }> {
  const config = file('serve.json', {
    endpoints: [
      {
        id: 'lb',
        type: 'load-balancer',
        workersMin: 1,
        workersMax: 2,
        workerConcurrency: 4,
        jobDurationMs: 200,
        llm: { ttftMs: 50, interTokenMs: 5, outputTokens: 8 },
      },
    ],
  });
  const srv = spawn('node', ['bin/loadlab.js', 'serve', '--port', '0', '--config', config, '--api-key', 'k', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let out = '';
    const t = setTimeout(() => reject(new Error(`serve did not start: ${out}`)), 15_000);
    srv.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const lines = out.split('\n');
      if (lines.length >= 4) {
        clearTimeout(t);
        resolve({ lines, stop: () => srv.kill('SIGTERM') });
      }
    });
    srv.on('exit', (code) => reject(new Error(`serve exited with ${code}`)));
  });
}

describe('loadlab run: load-balancing endpoints (built CLI)', () => {
  test('run-poll aimed at a load-balancing endpoint exits 2, naming the behaviour and the endpoint type', () => {
    const f = file('refused.json', {
      name: 'refused',
      durationMs: 1000,
      endpoint: { type: 'load-balancer' },
      traffic: [{ name: 'submit', arrival: { process: 'constant', ratePerSec: 1 }, client: { behaviour: 'run-poll' } }],
    });
    const r = cli('run', f, '--out', join(dir, 'refused'));
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('traffic.0.client.behaviour');
    expect(r.stderr).toContain('behaviour run-poll needs a queue endpoint, but endpoint.type is load-balancer');
  });

  test("serve prints each load-balancing endpoint's base URL; a run against it, and against serve's /v2 URL, reaches the worker", async () => {
    const s = await serve([]);
    try {
      expect(s.lines[0]).toMatch(/^loadlab serve: listening on http:\/\/127\.0\.0\.1:\d+\/v2 /);
      const base = /http:\/\/\S+\/v2/.exec(s.lines[0]!)![0];
      expect(s.lines[1]).toBe(`  load-balancing endpoint lb: ${base.replace(/\/v2$/, '/lb/lb')}`);
      const lbBase = base.replace(/\/v2$/, '/lb/lb');
      for (const [target, out] of [
        [lbBase, 'direct'],
        [base, 'derived'],
      ] as const) {
        const r = cli('run', lbScenario(2000), '--target', target, '--api-key', 'k', '--out', join(dir, out));
        expect(r.status, r.stderr).toBe(0);
        const rep = JSON.parse(readFileSync(join(dir, out, 'report.json'), 'utf8'));
        expect(Object.keys(rep.operations)).toEqual(['lb']);
        expect(rep.operations.lb.byStatus).toEqual({ '200': 16 });
        expect(rep.operations.lb.balancerFailed).toEqual({ 'no-workers': 0, timeout: 0, dropped: 0, 'worker-timeout': 0, 'worker-gone': 0 });
        expect(rep.flows.chat.outcomes).toEqual({ COMPLETED: 8 });
        expect(rep.flows.generate.outcomes).toEqual({ COMPLETED: 8 });
      }
    } finally {
      s.stop();
    }
  }, 60_000);

  test('in lockstep against serve --clock manual', async () => {
    const s = await serve(['--clock', 'manual']);
    try {
      const base = /http:\/\/\S+\/v2/.exec(s.lines[0]!)![0];
      const r = cli('run', lbScenario(5000), '--target', base, '--lockstep', '--api-key', 'k', '--out', join(dir, 'lockstep'));
      expect(r.status, r.stderr).toBe(0);
      const rep = JSON.parse(readFileSync(join(dir, 'lockstep', 'report.json'), 'utf8'));
      expect(rep.operations.lb.byStatus).toEqual({ '200': 40 });
      expect(rep.flows.generate.outcomes).toEqual({ COMPLETED: 20 });
    } finally {
      s.stop();
    }
  }, 60_000);
});
