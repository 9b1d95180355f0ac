/**
 * `loadlab run` in shards (issue 22): `--shard I/N`, `--shards N` / LOADLAB_SHARDS with
 * JOB_COMPLETION_INDEX, and `--start-at`. Bad values exit 2 naming the flag or variable; the
 * embedded simulator refuses sharding; shards run against one `loadlab serve` on 127.0.0.1
 * together send exactly the unsharded run's arrivals; `--start-at` holds the first request back
 * until its instant.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, test } from 'vitest';
import { batched } from '../helpers/cli-batch.js';
import { startLeadMs, wholeSecondAfter } from '../helpers/cli-start-up.js';
import { startServe, type ServeProcess } from './serve-process.js';

const dir = mkdtempSync(join(tmpdir(), 'loadlab-shard-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const baseEnv: NodeJS.ProcessEnv = { ...process.env, CI: 'true' };
for (const k of ['RUNPOD_API_KEY', 'LOADLAB_SHARDS', 'JOB_COMPLETION_INDEX', 'GITHUB_STEP_SUMMARY']) delete baseEnv[k];

const children: ChildProcess[] = [];
let serve: ServeProcess | undefined;
afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  serve?.stop();
  serve = undefined;
});

interface Ran {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** `loadlab run …` without blocking this process (a server in it may have to answer). */
function cli(args: string[], env: NodeJS.ProcessEnv = {}, started?: (c: ChildProcess) => void): Promise<Ran> {
  const child = spawn('node', ['bin/loadlab.js', 'run', ...args], { env: { ...baseEnv, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  started?.(child);
  const r: Ran = { status: null, stdout: '', stderr: '' };
  child.stdout.on('data', (d: Buffer) => void (r.stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => void (r.stderr += d.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ ...r, status: code })));
}

function scenario(name: string, arrival: Record<string, unknown>, durationMs = 3000): string {
  const f = join(dir, `${name}.json`);
  writeFileSync(
    f,
    JSON.stringify({
      name,
      seed: 5,
      durationMs,
      drainMs: 5000,
      endpoint: { id: 'ep' },
      // Four runners at once on a loaded 2-core machine send late: not what these tests look at.
      openModel: { lateAfterMs: 5000 },
      traffic: [{ name: 'h', arrival, client: { behaviour: 'health' } }],
    }),
  );
  return f;
}

const report = (out: string) => JSON.parse(readFileSync(join(out, 'report.json'), 'utf8'));
const iso = (ms: number) => new Date(ms).toISOString();

describe('bad shard flags: exit 2 naming the flag or variable, before anything runs', () => {
  const target = ['--target', 'http://127.0.0.1:9/v2'];
  const BAD: [string[], NodeJS.ProcessEnv, RegExp][] = [
    [['--shard', '4/4', ...target], {}, /--shard 4\/4: the index I must be below the count N \(0 to 3\)/],
    [['--shard', 'two/4', ...target], {}, /--shard: "two\/4" is not I\/N/],
    [['--shard', '0/2', '--shards', '2', ...target], {}, /--shard and --shards: give one/],
    [['--shards', '0', ...target], { JOB_COMPLETION_INDEX: '0' }, /--shards: the shard count, a whole number >= 1, got "0"/],
    [['--shards', '4', ...target], {}, /--shards 4: needs JOB_COMPLETION_INDEX/],
    [target, { LOADLAB_SHARDS: '4', JOB_COMPLETION_INDEX: '4' }, /JOB_COMPLETION_INDEX: a whole number from 0 to 3 \(LOADLAB_SHARDS 4\), got "4"/],
    [target, { LOADLAB_SHARDS: '1.5', JOB_COMPLETION_INDEX: '0' }, /LOADLAB_SHARDS: the shard count, a whole number >= 1, got "1.5"/],
    [['--start-at', 'tomorrow', ...target], {}, /--start-at: cannot read "tomorrow"/],
    [['--start-at', iso(Date.now() + 30 * 3600_000), ...target], {}, /--start-at: .* is 30\.0 h ahead; at most 24 h ahead/],
    [['--start-at', iso(Date.now() - 60_000), ...target], {}, /--start-at: .* was \d+\.\d s ago; at most 5 s late is accepted/],
  ];
  const EMBEDDED: [string[], NodeJS.ProcessEnv, RegExp][] = [
    [
      ['--shard', '1/2'],
      {},
      /--shard: not on the embedded simulator \(only with --target URL\); one endpoint is one state; shard plan sweeps instead \(`loadlab plan --shard`\)/,
    ],
    [
      [],
      { LOADLAB_SHARDS: '2', JOB_COMPLETION_INDEX: '1' },
      /LOADLAB_SHARDS with JOB_COMPLETION_INDEX: not on the embedded simulator .*one endpoint is one state; shard plan sweeps instead/,
    ],
    [['--start-at', iso(Date.now() + 60_000)], {}, /--start-at: not on the embedded simulator \(only with --target URL\); it waits for a wall instant/],
    [['--shard', '0/2', '--lockstep', '--target', 'http://127.0.0.1:9/v2'], {}, /--shard: not with --lockstep .*one endpoint is one state/],
  ];
  const alone = join(dir, 'index-alone');
  // Every command line of this block in one child process (test/helpers/cli-batch.ts), in this order.
  const result = batched(() => {
    const flags = scenario('flags', { process: 'constant', ratePerSec: 1 });
    const embedded = scenario('embedded', { process: 'constant', ratePerSec: 1 });
    return [
      ...BAD.map(([args, env]) => ({ args: ['run', flags, ...args], env })),
      ...EMBEDDED.map(([args, env]) => ({ args: ['run', embedded, ...args], env })),
      { args: ['run', scenario('index-alone', { process: 'constant', ratePerSec: 2 }), '--out', alone], env: { JOB_COMPLETION_INDEX: '1' } },
    ];
  }, baseEnv);

  test.each(BAD.map(([args, env, msg], i) => [args, env, msg, i] as const))('run %j with env %j', (_args, _env, msg, i) => {
    const r = result(i);
    expect(r.status, r.stderr).toBe(2);
    expect(r.stderr).toMatch(msg);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  test.each(EMBEDDED.map(([args, env, msg], i) => [args, env, msg, BAD.length + i] as const))(
    'refused where one endpoint is one state: run %j with env %j',
    (_args, _env, msg, i) => {
      const r = result(i);
      expect(r.status, r.stderr).toBe(2);
      expect(r.stderr).toMatch(msg);
    },
  );

  test('JOB_COMPLETION_INDEX alone does not shard a run (the embedded simulator runs it whole)', () => {
    const r = result(BAD.length + EMBEDDED.length);
    expect(r.status, r.stderr).toBe(0);
    expect(report(alone).shard).toBeUndefined();
    expect(report(alone).flows.h.sessions).toBe(6);
  });
});

describe('shards against one loadlab serve on 127.0.0.1', () => {
  test("three shards (flag, --shards with JOB_COMPLETION_INDEX, LOADLAB_SHARDS) send exactly the whole run's Poisson arrivals, each its k mod 3", async () => {
    serve = await startServe(['--api-key', 'k']);
    const f = scenario('poisson-shards', { process: 'poisson', ratePerSec: 12 });
    const out = (n: string) => join(dir, 'poisson', n);
    const t = ['--target', serve.base, '--api-key', 'k'];
    const runs = await Promise.all([
      cli([f, ...t, '--out', out('whole')]),
      cli([f, ...t, '--out', out('0'), '--shards', '3'], { JOB_COMPLETION_INDEX: '0' }),
      cli([f, ...t, '--out', out('1'), '--shard', '1/3']),
      cli([f, ...t, '--out', out('2')], { LOADLAB_SHARDS: '3', JOB_COMPLETION_INDEX: '2' }),
    ]);
    for (const r of runs) expect(r.status, r.stderr).toBe(0);
    const whole = report(out('whole'));
    expect(whole.shard).toBeUndefined();
    const n = whole.flows.h.sessions as number;
    expect(n).toBeGreaterThan(15); // 12/s for 3 s: about 36
    for (const i of [0, 1, 2]) {
      const r = report(out(String(i)));
      expect(r.shard).toEqual({ count: 3, indices: [i] });
      // Arrivals k = i, i + 3, … of the whole run's n.
      expect(r.flows.h.sessions).toBe(Math.ceil((n - i) / 3));
      expect(r.operations.health.requests).toBe(r.flows.h.sessions);
      expect(readFileSync(join(out(String(i)), 'report.md'), 'utf8')).toContain(`This report covers **shard ${i} of 3**`);
      expect(readFileSync(join(out(String(i)), 'report.html'), 'utf8')).toContain(`<strong>shard ${i} of 3</strong>`);
      expect(runs[i + 1]!.stdout).toContain(`shard ${i} of 3`);
    }
  }, 90_000);
});

describe('--start-at', () => {
  let stub: Server | undefined;
  afterEach(() => void stub?.close());

  /** A health endpoint on 127.0.0.1 that notes the wall time of every request. */
  async function healthStub(seen: number[]): Promise<string> {
    stub = createServer((req, res) => {
      seen.push(Date.now());
      req.resume();
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"jobs":{"inQueue":0,"inProgress":0},"workers":{"idle":1}}');
    });
    await new Promise<void>((resolve) => stub!.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(stub.address() as AddressInfo).port}/v2`;
  }

  test('without --shard: the first request waits for the instant, kept as shard.startAtMs and the start of metrics.om', async () => {
    const seen: number[] = [];
    const base = await healthStub(seen);
    const out = join(dir, 'start-at');
    const file = scenario('start-at', { process: 'constant', ratePerSec: 5 }, 2000);
    // Beyond the CLI's own start-up, which a loaded machine makes seconds long (helpers/cli-start-up.ts).
    const startAt = wholeSecondAfter(await startLeadMs(file, 1));
    const r = await cli([file, '--target', base, '--out', out, '--start-at', iso(startAt)]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toContain(`waiting until ${iso(startAt)} (--start-at)`);
    // The flow's 10 calls and the runner's own /health reads (--health-every), none before the instant.
    const rep = report(out);
    expect(rep.operations.health.requests).toBe(10);
    expect(rep.healthSampling.requests).toBeGreaterThanOrEqual(1);
    expect(seen).toHaveLength(10 + rep.healthSampling.requests);
    expect(Math.min(...seen)).toBeGreaterThanOrEqual(startAt);
    expect(report(out).shard).toEqual({ count: 1, indices: [0], startAtMs: startAt });
    expect(report(out).wallClock.metricsStartMs).toBe(startAt);
    expect(readFileSync(join(out, 'report.md'), 'utf8')).toContain(`the whole run (one shard); time 0 at ${iso(startAt)} (--start-at)`);
  }, 60_000);

  test('Ctrl-C while waiting stops at once: nothing sent, reports marked interrupted, exit 130', async () => {
    const seen: number[] = [];
    const base = await healthStub(seen);
    const out = join(dir, 'start-at-cancel');
    const startAt = Date.now() + 10 * 60_000;
    let child: ChildProcess | undefined;
    const done = cli(
      [scenario('start-at-cancel', { process: 'constant', ratePerSec: 5 }, 2000), '--target', base, '--out', out, '--shard', '0/2', '--start-at', iso(startAt)],
      {},
      (c) => (child = c),
    );
    let stderr = '';
    let sent = false;
    child!.stderr!.on('data', (d: Buffer) => {
      stderr += d.toString();
      // One Ctrl-C only: a second quits at once, without reports.
      if (!sent && stderr.includes('waiting until')) sent = child!.kill('SIGINT');
    });
    const r = await done;
    expect(r.status, r.stderr).toBe(130);
    expect(seen).toHaveLength(0);
    expect(report(out).interrupted).toBeDefined();
    expect(report(out).shard).toEqual({ count: 2, indices: [0], startAtMs: startAt });
  }, 60_000);
});
