/**
 * Issue 22 end to end: four shard processes (`--shards 4`, JOB_COMPLETION_INDEX=0..3, one
 * `--start-at`) against one `loadlab serve` on 127.0.0.1, then `loadlab merge`: the merged counts
 * are the shards' sums and a single-process run's, the merged percentiles those of all samples,
 * and a threshold no shard fails alone fails on the merged run (exit 99).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { decode, newHistogram, summarize } from '../../src/report/histogram.js';
import type { RunResult } from '../../src/report/run-result.js';
import { startLeadMs, wholeSecondAfter } from '../helpers/cli-start-up.js';
import { startServe, type ServeProcess } from './serve-process.js';

const dir = mkdtempSync(join(tmpdir(), 'loadlab-merge-e2e-'));
const env: NodeJS.ProcessEnv = { ...process.env, CI: 'true' };
for (const k of ['RUNPOD_API_KEY', 'LOADLAB_SHARDS', 'JOB_COMPLETION_INDEX', 'GITHUB_STEP_SUMMARY']) delete env[k];
const children: ChildProcess[] = [];
const serves: ServeProcess[] = [];
afterAll(() => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  for (const s of serves) s.stop();
  rmSync(dir, { recursive: true, force: true });
});

interface Ran {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** `loadlab …` without blocking this process. */
function cli(args: string[], extra: NodeJS.ProcessEnv = {}): Promise<Ran> {
  const child = spawn('node', ['bin/loadlab.js', ...args], { env: { ...env, ...extra }, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  const r: Ran = { status: null, stdout: '', stderr: '' };
  child.stdout.on('data', (d: Buffer) => void (r.stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => void (r.stderr += d.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ ...r, status: code })));
}

const report = (out: string) => JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as RunResult;
const sum = (rs: readonly RunResult[], f: (r: RunResult) => number) => rs.reduce((n, r) => n + f(r), 0);

test("four shards against one serve, merged: sums, a single run's counts, all samples' percentiles, exit 99 on the whole only", async () => {
  // Four warm workers of 200 ms jobs: 6 jobs/s never queue long, so the drain ends soon after the traffic.
  const config = join(dir, 'sim.json');
  writeFileSync(
    config,
    JSON.stringify({ seed: 1, apiKeys: ['k'], endpoints: [{ id: 'ep', workersMin: 4, workersMax: 4, idleTimeoutMs: 5000, jobDurationMs: 200 }] }),
  );
  const scenario = join(dir, 'scenario.json');
  writeFileSync(
    scenario,
    JSON.stringify({
      name: 'e2e-shards',
      seed: 3,
      durationMs: 8000,
      drainMs: 8000,
      endpoint: { id: 'ep' },
      // A loaded machine may send a little late: only a send 5 s late counts (the verdict stays about the target).
      openModel: { lateAfterMs: 5000 },
      traffic: [
        {
          name: 'jobs',
          arrival: { process: 'poisson', ratePerSec: 6 },
          client: { behaviour: 'run-poll', poll: { baseMs: 300, factor: 1, maxMs: 300, jitter: 0 } },
        },
        { name: 'h', arrival: { process: 'constant', ratePerSec: 2 }, client: { behaviour: 'health' } },
      ],
      // About 48 /run requests in all, about 12 per shard.
      thresholds: ['requests{run} < 25', 'p99_ms < 30000'],
    }),
  );
  const [shared, alone] = await Promise.all([startServe(['--config', config]), startServe(['--config', config])]);
  serves.push(shared!, alone!);
  // Far enough ahead for five CLI processes to start (and warm up) beside the rest of the suite:
  // thrice what five take to start just now (a shard up to 5 s late still runs, with a warning;
  // later it exits 2). A fixed 10 s was not always enough on a busy 2-core machine; 20 s is 20 s
  // of waiting on a quiet one.
  const startAt = wholeSecondAfter(await startLeadMs(scenario, 5));
  const out = (n: string) => join(dir, n);
  const target = (s: ServeProcess) => ['--target', s.base, '--api-key', 'k'];
  const runs = await Promise.all([
    ...[0, 1, 2, 3].map((i) =>
      cli(['run', scenario, ...target(shared!), '--shards', '4', '--start-at', new Date(startAt).toISOString(), '--out', out(`shard-${i}`)], {
        JOB_COMPLETION_INDEX: String(i),
      }),
    ),
    cli(['run', scenario, ...target(alone!), '--out', out('single')]),
  ]);
  const shards = [0, 1, 2, 3].map((i) => report(out(`shard-${i}`)));
  const single = report(out('single'));
  for (const [i, r] of runs.slice(0, 4).entries()) {
    expect(r.status, r.stderr).toBe(0);
    expect(shards[i]!.shard).toEqual({ count: 4, indices: [i], startAtMs: startAt });
    expect(shards[i]!.thresholds.every((t) => t.ok)).toBe(true);
  }
  // The single run sends the whole schedule, so it fails the count too.
  expect(runs[4]!.status, runs[4]!.stderr).toBe(99);

  const merged = await cli(['merge', out('shard-2'), out('shard-0'), out('shard-3'), out('shard-1'), '--out', out('merged')]);
  expect(merged.status, merged.stderr).toBe(99);
  const m = report(out('merged'));
  const runRequests = sum(shards, (r) => r.operations.run!.requests);
  expect(merged.stdout.split('\n')[0]).toBe(`FAIL: requests{run} < 25 (measured ${runRequests})`);
  expect(m.shard).toEqual({ count: 4, indices: [0, 1, 2, 3], startAtMs: startAt });

  // Counts: the shards' sums, and the single run's (the union of the shards' arrivals is its schedule).
  expect(m.operations.run!.requests).toBe(runRequests);
  expect(m.arrivals.intended).toBe(sum(shards, (r) => r.arrivals.intended));
  expect(m.arrivals.intended).toBe(single.arrivals.intended);
  expect(m.operations.run!.requests).toBe(single.operations.run!.requests);
  expect(m.operations.health!.requests).toBe(single.operations.health!.requests);
  expect(m.flows.jobs!.sessions).toBe(single.flows.jobs!.sessions);
  // Per 10 s window, /run requests as the single run counted them; a send can fall either side of a window edge.
  const perWindow = m.windows!.requests!.run!;
  expect(perWindow.reduce((a, b) => a + b, 0)).toBe(runRequests);
  perWindow.forEach((n, w) => expect(Math.abs(n - (single.windows!.requests!.run![w] ?? 0))).toBeLessThanOrEqual(2));
  // Status polls depend on timing; the merged rate is the single run's within a quarter.
  const all = (r: RunResult) => Object.values(r.operations).reduce((n, o) => n + o.requests, 0);
  expect(Math.abs(all(m) - all(single)) / all(single)).toBeLessThan(0.25);

  // Percentiles: those of one histogram of every shard's samples.
  const union = newHistogram();
  for (const r of shards) union.add(decode(r.operations.run!.responseMs));
  expect(m.operations.run!.responseMs.count).toBe(union.totalCount);
  expect(m.operations.run!.responseMs.summary).toEqual(summarize(union));

  // The endpoint over time is one endpoint's: never more workers than it has.
  const e = m.windows!.endpoint!;
  expect(e.source).toBe('sampled');
  e.queueLength.forEach((q, w) => {
    if (q < 0) return;
    expect(e.workers.running[w]! + e.workers.idle[w]! + e.workers.initializing[w]!).toBeLessThanOrEqual(4);
  });
}, 120_000);
