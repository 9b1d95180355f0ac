/** `loadlab run` as a user runs it: exit codes 0 / 2 / 99, the report files, the HTTP target against `serve`. */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { startServe } from './serve-process.js';
import { parseOpenMetrics, samples } from '../report/openmetrics-check.js';
import { batched } from '../helpers/cli-batch.js';

const dir = mkdtempSync(join(tmpdir(), 'loadlab-run-'));
const cli = (...args: string[]) => spawnSync('node', ['bin/loadlab.js', ...args], { encoding: 'utf8', env: { ...process.env, CI: 'true' }, timeout: 60_000 });

function scenario(extra: Record<string, unknown> = {}): string {
  const f = join(dir, `s${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(
    f,
    JSON.stringify({
      name: 'cli-check',
      durationMs: 20_000,
      endpoint: { workersMax: 2, jobDurationMs: 300 },
      traffic: [
        {
          name: 'poll',
          arrival: { process: 'constant', ratePerSec: 2 },
          client: { behaviour: 'run-poll', poll: { baseMs: 200, factor: 1, maxMs: 200, jitter: 0 } },
        },
      ],
      ...extra,
    }),
  );
  return f;
}

describe('loadlab run', () => {
  // The in-process command lines of this block in one child process (test/helpers/cli-batch.ts);
  // the seed test's second run with seed 5 in its own, so that "byte for byte" spans processes.
  const invalid = scenario({ traffic: [] });
  const llmBad = scenario({ endpoint: { llm: { ttftMs: 300, interTokenMs: 25, outputTokens: { dist: 'uniform', minMs: 0, maxMs: 40 } } } });
  const seeded = scenario({ traffic: [{ name: 'p', arrival: { process: 'poisson', ratePerSec: 2 }, client: { behaviour: 'health' } }] });
  const LINES = {
    ok: ['run', scenario({ thresholds: ['jobs_completed == 40'] }), '--out', join(dir, 'ok')],
    th: ['run', scenario({ thresholds: ['jobs_completed > 1000', 'jobs_failed == 0'] }), '--out', join(dir, 'th'), '--junit', join(dir, 'ci', 'junit.xml')],
    invalid: ['run', invalid],
    llmBad: ['run', llmBad],
    seedA: ['run', seeded, '--seed', '5', '--out', join(dir, 'a')],
    seedC: ['run', seeded, '--seed', '6', '--out', join(dir, 'c')],
    dry: ['run', scenario(), '--dry-run'],
  };
  const ran = batched(() => Object.values(LINES).map((args) => ({ args })));
  const result = (name: keyof typeof LINES) => ran(Object.keys(LINES).indexOf(name));

  test('writes report.json, report.md and report.html and prints a summary; exit 0', () => {
    const out = join(dir, 'ok');
    const r = result('ok');
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/loadlab run cli-check: in-process, seed 1/);
    const rep = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8'));
    expect(rep.jobs.finalStatus).toEqual({ COMPLETED: 40 });
    expect(readFileSync(join(out, 'report.md'), 'utf8')).toMatch(/## Headroom/);
    expect(existsSync(join(out, 'report.html'))).toBe(true);
    expect(r.stderr).toBe(''); // no progress line under CI
  });
  test('a failed threshold: reports written, exit 99; --junit writes one test case per threshold', () => {
    const out = join(dir, 'th');
    const junit = join(dir, 'ci', 'junit.xml');
    const r = result('th');
    expect(r.status).toBe(99);
    const xml = readFileSync(junit, 'utf8');
    expect(xml).toMatch(/<testsuite name="loadlab.cli-check" tests="3" failures="1"/);
    expect(xml).toContain('<failure message="jobs_completed &gt; 1000: got 40" type="threshold">');
    expect(r.stdout).toMatch(/failed: jobs_completed > 1000 \(got 40\)/);
    expect(existsSync(join(out, 'report.json'))).toBe(true);
  });
  test('an invalid scenario: exit 2 naming file, field and reason', () => {
    const r = result('invalid');
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(`${invalid}: traffic: needs at least one flow`);
  });
  test('an llm: token model whose outputTokens can be 0: loadlab run and serve --config exit 2 naming the field', () => {
    const r = result('llmBad');
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(`${llmBad}: endpoint.llm.outputTokens.minMs: Too small: expected number to be >=1`);
    const config = join(dir, 'llm-config.json');
    writeFileSync(config, JSON.stringify({ endpoints: [{ id: 'ep', llm: { ttftMs: -1, interTokenMs: 25, outputTokens: 20 } }] }));
    const s = cli('serve', '--config', config, '--port', '0');
    expect(s.status).toBe(2);
    expect(s.stderr).toContain(`${config}: endpoints.0.llm.ttftMs: Too small: expected number to be >=0`);
  });
  test('--seed changes the run; the same seed repeats it byte for byte', () => {
    const read = (o: string) => {
      const j = JSON.parse(readFileSync(join(dir, o, 'report.json'), 'utf8'));
      delete j.wallClock;
      return JSON.stringify(j);
    };
    expect([result('seedA').status, result('seedC').status]).toEqual([0, 0]);
    expect(cli('run', seeded, '--seed', '5', '--out', join(dir, 'b')).status).toBe(0);
    expect(read('a')).toBe(read('b'));
    expect(read('a')).not.toBe(read('c'));
  });
  test('--dry-run prints the plan', () => {
    const r = result('dry');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/plan for cli-check.*\n.*poll: run-poll on \/run, ~40 sessions/);
    expect(r.stdout).toMatch(/worker-seconds/);
  });
});

describe('HTTP target against loadlab serve (127.0.0.1)', () => {
  test('run-poll and health over real HTTP: every job completes, 2xx only', async () => {
    const srv = spawn('node', ['bin/loadlab.js', 'serve', '--port', '0', '--config', writeConfig()], { stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      const base = await new Promise<string>((resolve, reject) => {
        const t = setTimeout(() => reject(new Error('serve did not print its URL')), 15_000);
        srv.stdout.on('data', (d: Buffer) => {
          const m = /http:\/\/\S+\/v2/.exec(d.toString());
          if (m) {
            clearTimeout(t);
            resolve(m[0]);
          }
        });
      });
      const f = join(dir, 'http.json');
      writeFileSync(
        f,
        JSON.stringify({
          name: 'http-check',
          durationMs: 2000,
          drainMs: 10_000,
          endpoint: { id: 'ep' },
          // Not a latency test: a busy test machine's late timers must not make the run INVALID.
          openModel: { lateAfterMs: 1000 },
          traffic: [
            {
              name: 'poll',
              arrival: { process: 'constant', ratePerSec: 20 },
              client: { behaviour: 'run-poll', poll: { baseMs: 100, factor: 1, maxMs: 100, jitter: 0 }, payload: { sim: { durationMs: 50 } } },
            },
            { name: 'h', arrival: { process: 'constant', ratePerSec: 5 }, client: { behaviour: 'health' } },
          ],
        }),
      );
      const out = join(dir, 'http');
      const r = spawnSync('node', ['bin/loadlab.js', 'run', f, '--target', base, '--api-key', 'k', '--out', out], {
        encoding: 'utf8',
        env: { ...process.env, CI: 'true' },
        timeout: 30_000,
      });
      expect(r.status, r.stderr).toBe(0);
      const rep = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8'));
      expect(rep.target).toMatchObject({ kind: 'http', url: base });
      expect(rep.flows.poll.outcomes).toEqual({ COMPLETED: 40 });
      expect(rep.flows.h.outcomes).toEqual({ ok: 10 });
      expect(Object.keys(rep.operations.status.byStatus)).toEqual(['200']);
      const om = parseOpenMetrics(readFileSync(join(out, 'metrics.om'), 'utf8'));
      expect(samples(om, 'loadlab_run_info')[0]!.labels).toMatchObject({ target: 'http', causes: 'reported' });
      for (const op of ['run', 'status', 'health'])
        expect(samples(om, 'loadlab_client_requests_total', { operation: op }).at(-1)!.value, op).toBe(rep.operations[op].requests);
    } finally {
      srv.kill('SIGTERM');
    }
  });
});

function writeConfig(): string {
  const f = join(dir, 'serve.json');
  writeFileSync(f, JSON.stringify({ apiKeys: ['k'], endpoints: [{ id: 'ep', workersMax: 5 }] }));
  return f;
}

describe('run --lockstep against loadlab serve --clock manual', () => {
  test('the report equals the in-process one but for target, wall clock and the probes only in-process has', async () => {
    const f = scenario({
      durationMs: 30_000,
      seed: 3,
      traffic: [
        {
          name: 'poll',
          arrival: { process: 'poisson', ratePerSec: 2 },
          client: { behaviour: 'run-poll', poll: { baseMs: 300, factor: 1.5, maxMs: 2000, jitter: 0.3 } },
        },
        { name: 'sync', arrival: { process: 'poisson', ratePerSec: 1 }, client: { behaviour: 'runsync', waitMs: 1000 } },
      ],
      endpoint: { workersMax: 2, jobDurationMs: { dist: 'exponential', meanMs: 800 } },
    });
    const srv = await startServe(['--clock', 'manual', '--config', f, '--seed', '3', '--api-key', 'k']);
    try {
      const r = spawnSync(
        'node',
        ['bin/loadlab.js', 'run', f, '--target', srv.base, '--lockstep', '--api-key', 'k', '--out', join(dir, 'ls'), '--start-time', '0'],
        { encoding: 'utf8', env: { ...process.env, CI: 'true' }, timeout: 60_000 },
      );
      expect(r.status, r.stderr).toBe(0);
      expect(r.stdout).toMatch(/lockstep, seed 3, \d+ s virtual/);
      cli('run', f, '--out', join(dir, 'ip'), '--start-time', '0');
      const read = (o: string) => JSON.parse(readFileSync(join(dir, o, 'report.json'), 'utf8'));
      const ls = read('ls');
      const ip = read('ip');
      expect(ls.target).toEqual({ kind: 'lockstep', url: srv.base, causes: 'reported' });
      for (const k of ['operations', 'flows', 'jobs', 'arrivals', 'elapsedMs']) expect(ls[k], k).toEqual(ip[k]);
      expect(ip.jobs.accepted).toBeGreaterThan(60);
      // Workers and their bill: only the embedded simulator's run has them.
      expect(ls.workers).toBeUndefined();
      expect(ip.workers.started).toBeGreaterThan(0);
      // metrics.om too, but for the target and what only in-process sees (queue probes, workers).
      const only =
        /^loadlab_(run_info|client_queue_jobs_max|client_worker_seconds_total|client_worker_billed_seconds_total)\b|^# \w+ loadlab_client_(queue_jobs_max|worker_seconds|worker_billed_seconds) /;
      const om = (o: string) =>
        readFileSync(join(dir, o, 'metrics.om'), 'utf8')
          .split('\n')
          .filter((l) => !only.test(l));
      expect(om('ls')).toEqual(om('ip'));
    } finally {
      srv.stop();
    }
  }, 60_000);
  test('--lockstep without --target is bad usage (exit 2)', () => {
    const r = cli('run', scenario(), '--lockstep');
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/--lockstep needs --target/);
  });
});
