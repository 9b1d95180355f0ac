/**
 * The generated pods do what the manifests promise, run here as local processes (local-pod.ts):
 * the plan shards of `loadlab k8s plan` and their merge Job give the plan.json `loadlab plan` gives
 * on one machine, byte for byte; the run shards of `loadlab k8s run` start together against one
 * `loadlab serve` with the key from the Secret, each report its own shard, shard 0 alone reads
 * `/health` (`--health-every`), and the merge pod joins them, keeping shard 0's view of the
 * endpoint, so that `loadlab calibrate` takes the merged run.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { request } from 'undici';
import { METRIC } from '../../src/contract/metric-names.js';
import { startServe, type ServeProcess } from '../cli/serve-process.js';
import { parseProm, select } from '../telemetry/prom-text.js';
import { startLeadMs } from '../helpers/cli-start-up.js';
import { k8s } from './k8s-cli.js';
import { mountConfigMap, runContainer } from './local-pod.js';

const dir = mkdtempSync(join(tmpdir(), 'loadlab-k8s-pods-'));
const serves: ServeProcess[] = [];
afterAll(() => {
  for (const s of serves) s.stop();
  rmSync(dir, { recursive: true, force: true });
});

test('plan: three shard pods, then the merge pod, write the plan.json of a single `loadlab plan`', async () => {
  const root = join(dir, 'plan');
  writeFileSync(
    join(dir, 'plan.yaml'),
    [
      'name: k8s-plan',
      'seed: 2',
      'durationMs: 60000',
      'endpoint: { id: ep, jobDurationMs: 1000 }',
      'traffic:',
      '  - name: jobs',
      '    arrival: { process: poisson, ratePerSec: 2 }',
      '    client: { behaviour: runsync, waitMs: 30000 }',
      'slo:',
      '  - turnaround_p95_ms < 5000',
      '',
    ].join('\n'),
  );
  const flags = ['--workers-max', '1..7', '--seeds', '2', '--jobs', '1'];
  const gen = k8s(['plan', join(dir, 'plan.yaml'), '--parallelism', '3', '--image', 'img', '--storage', 'pvc:r', ...flags], join(dir, 'plan-manifests'));
  expect(gen.status, gen.stderr).toBe(0);
  const scenarioDir = mountConfigMap(gen.configMap, gen.shardsJob, root);
  const shards = await Promise.all([0, 1, 2].map((i) => runContainer(gen.shardsJob.spec.template.spec.containers[0], i, root)));
  for (const s of shards) expect(s.status, s.output).toBe(0);
  const merge = await runContainer(gen.mergeJob.spec.template.spec.containers[0], 0, root);
  expect(merge.status, merge.output).toBe(0);
  // The same scenario file at the same path, so even plan.json's scenario.file agrees.
  const whole = spawnSync('node', ['bin/loadlab.js', 'plan', join(scenarioDir, 'scenario.yaml'), ...flags, '--out', join(dir, 'whole')], {
    encoding: 'utf8',
    env: { ...process.env, CI: 'true' },
    timeout: 120_000,
  });
  expect(whole.status, whole.stderr).toBe(0);
  expect(readFileSync(join(root, 'results', 'loadlab-k8s-plan', 'merged', 'plan.json'), 'utf8')).toBe(readFileSync(join(dir, 'whole', 'plan.json'), 'utf8'));
}, 240_000);

test("run: three shard pods start together against one serve, authenticated by the Secret's key, each writing its shard", async () => {
  const root = join(dir, 'run');
  writeFileSync(
    join(dir, 'sim.json'),
    JSON.stringify({ seed: 1, apiKeys: ['pod-key'], endpoints: [{ id: 'ep', workersMin: 2, workersMax: 2, jobDurationMs: 100 }] }),
  );
  writeFileSync(
    join(dir, 'run.json'),
    JSON.stringify({
      name: 'k8s-run',
      seed: 3,
      durationMs: 4000,
      drainMs: 5000,
      endpoint: { id: 'ep' },
      // A loaded machine may send a little late: only a send 5 s late counts.
      openModel: { lateAfterMs: 5000 },
      traffic: [{ name: 'jobs', arrival: { process: 'constant', ratePerSec: 3 }, client: { behaviour: 'runsync', waitMs: 10000 } }],
    }),
  );
  const serve = await startServe(['--config', join(dir, 'sim.json')]);
  serves.push(serve);
  // Far enough ahead for three CLI processes to start, on a busy machine too (helpers/cli-start-up.ts).
  const delayS = Math.ceil((await startLeadMs(join(dir, 'run.json'), 3)) / 1000);
  const gen = k8s(
    [
      'run',
      join(dir, 'run.json'),
      '--parallelism',
      '3',
      '--image',
      'img',
      '--storage',
      'pvc:r',
      '--target',
      serve.base,
      '--api-key-secret',
      'runpod',
      '--start-delay',
      String(delayS),
      '--health-every',
      '200ms',
    ],
    join(dir, 'run-manifests'),
  );
  expect(gen.status, gen.stderr).toBe(0);
  const scenarioDir = mountConfigMap(gen.configMap, gen.shardsJob, root);
  const healthServed = async () => {
    const m = parseProm(await (await request(serve.base.replace(/\/v2$/, '/metrics'))).body.text());
    return select(m, METRIC.httpRequests, { route: 'health' }).reduce((n, x) => n + x.value, 0);
  };
  const shards = await Promise.all(
    [0, 1, 2].map((i) => runContainer(gen.shardsJob.spec.template.spec.containers[0], i, root, { 'runpod/RUNPOD_API_KEY': 'pod-key' })),
  );
  const args: string[] = gen.shardsJob.spec.template.spec.containers[0].args;
  const startAtMs = Date.parse(args[args.indexOf('--start-at') + 1]!);
  const reports = [0, 1, 2].map((i) => JSON.parse(readFileSync(join(root, 'results', 'loadlab-k8s-run', `shard-${i}`, 'report.json'), 'utf8')));
  for (const [i, s] of shards.entries()) {
    expect(s.status, s.output).toBe(0);
    expect(reports[i].shard).toEqual({ count: 3, indices: [i], startAtMs });
    expect(reports[i].operations.runsync.byStatus).toEqual({ 200: reports[i].operations.runsync.requests });
  }
  // 3 arrivals a second for 4 s, dealt round-robin: 4 each.
  expect(reports.map((r) => r.operations.runsync.requests)).toEqual([4, 4, 4]);
  // One endpoint, read once: shard 0 alone read /health (every 200 ms), for all three.
  const sampled = reports[0].healthSampling;
  expect(sampled.everyMs).toBe(200);
  expect(sampled.answered).toBeGreaterThanOrEqual(5);
  expect([reports[1].healthSampling, reports[2].healthSampling]).toEqual([undefined, undefined]);
  expect(shards[0]!.output).toContain('/health sampling: every 200 ms');
  for (const s of shards.slice(1)) expect(s.output).toContain('/health sampling: by shard 0, for all the shards');
  const served = await healthServed();
  expect(served).toBeGreaterThanOrEqual(sampled.answered);
  expect(served).toBeLessThanOrEqual(sampled.requests);
  expect(reports[0].windows.endpoint.source).toBe('sampled');
  expect([reports[1].windows.endpoint, reports[2].windows.endpoint]).toEqual([undefined, undefined]);
  // The merge pod joins them into one run of all 12.
  const merge = await runContainer(gen.mergeJob.spec.template.spec.containers[0], 0, root);
  expect(merge.status, merge.output).toBe(0);
  const merged = JSON.parse(readFileSync(join(root, 'results', 'loadlab-k8s-run', 'merged', 'report.json'), 'utf8'));
  expect(merged.shard).toEqual({ count: 3, indices: [0, 1, 2], startAtMs });
  expect(merged.operations.runsync.requests).toBe(12);
  // The merge keeps shard 0's view of the endpoint: its queue and workers over time, its sampling, its observations.
  expect(merged.windows.endpoint).toEqual(reports[0].windows.endpoint);
  expect(merged.healthSampling).toEqual(sampled);
  expect(merged.observed).toEqual(reports[0].observed);
  expect(merged.observed.health.rows.length).toBeGreaterThan(0);
  // …so the merged run calibrates: the two warm workers of 100 ms jobs.
  const cal = spawnSync(
    'node',
    [
      'bin/loadlab.js',
      'calibrate',
      join(root, 'results', 'loadlab-k8s-run', 'merged'),
      '--scenario',
      join(scenarioDir, 'scenario.json'),
      '--out',
      join(dir, 'cal'),
    ],
    { encoding: 'utf8', env: { ...process.env, CI: 'true' }, timeout: 60_000 },
  );
  expect(cal.status, cal.stderr).toBe(0);
  expect(cal.stdout).toContain('merged shards 0, 1, 2 of 3: fitted from what one shard observed');
  const c = JSON.parse(readFileSync(join(dir, 'cal', 'calibration.json'), 'utf8'));
  expect(c.workersMax.value).toBe(2);
  expect(c.jobDurationMs.p50).toBeGreaterThanOrEqual(100);
  expect(c.jobDurationMs.p50).toBeLessThan(200);
}, 120_000);
