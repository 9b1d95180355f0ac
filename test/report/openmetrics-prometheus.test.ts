/**
 * A real Prometheus over a backfilled metrics.om answers the latency queries a dashboard asks:
 * `promtool tsdb create-blocks-from openmetrics`, then `prometheus` on 127.0.0.1 over those blocks.
 * Each window's p95 by histogram_quantile falls in the bucket that holds report.json's per-window
 * HDR p95, and the dashboard's form (rate over 1 m) answers inside the run. Without promtool and
 * prometheus on PATH the test is skipped (apt-get install -y prometheus), except under CI=true,
 * where their absence fails.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { expect, test } from 'vitest';
import { DURATION_BUCKETS_S } from '../../src/contract/metric-names.js';
import { runScenario } from '../../src/load/run-scenario.js';
import { scenarioSchema } from '../../src/load/scenario/schema.js';
import { mergeWindowEncodings, summarize } from '../../src/report/histogram.js';
import { renderOpenMetrics } from '../../src/report/render-openmetrics.js';

const present = (cmd: string) => !spawnSync(cmd, ['--version'], { encoding: 'utf8', timeout: 30_000 }).error;
const MISSING = 'promtool or prometheus is not on PATH (Debian/Ubuntu: apt-get install -y prometheus; .ci/run installs it)';
const START = Date.UTC(2024, 4, 1, 12);

async function freePort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((ok) => srv.listen(0, '127.0.0.1', ok));
  const port = (srv.address() as { port: number }).port;
  await new Promise((ok) => srv.close(ok));
  return port;
}

test('histogram_quantile over the backfilled per-window histograms agrees with report.json\'s per-window p95', async (ctx) => {
  if (!present('promtool') || !present('prometheus')) {
    if (process.env.CI === 'true') throw new Error(`${MISSING}; CI=true needs them`);
    ctx.skip(MISSING);
  }
  // Response times spread over several buckets: /runsync held for its job (lognormal, queued
  // behind 3 workers) or its 5 s wait, polls answered at once.
  const r = await runScenario(scenarioSchema.parse({
    name: 'prom-p95', seed: 5, durationMs: 60_000, drainMs: 60_000,
    endpoint: { id: 'pq', workersMax: 3, jobDurationMs: { dist: 'lognormal', medianMs: 700, p95Ms: 3000 } },
    traffic: [
      { name: 'sync', arrival: { process: 'poisson', ratePerSec: 3 }, client: { behaviour: 'runsync', waitMs: 5000 } },
      { name: 'poll', arrival: { process: 'poisson', ratePerSec: 0.5 }, client: { behaviour: 'run-poll', poll: { baseMs: 300, factor: 1.5, maxMs: 2000, jitter: 0.3 } } },
    ],
  }));
  const dir = mkdtempSync(join(tmpdir(), 'loadlab-prom-'));
  const om = join(dir, 'metrics.om');
  writeFileSync(om, renderOpenMetrics(r, START));
  const db = join(dir, 'db');
  const created = spawnSync('promtool', ['tsdb', 'create-blocks-from', 'openmetrics', om, db], { encoding: 'utf8', timeout: 120_000 });
  expect(created.status, `${created.stdout}${created.stderr}`).toBe(0);
  writeFileSync(join(dir, 'prometheus.yml'), 'global: {}\n');

  const port = await freePort();
  const prom = spawn('prometheus', [
    `--config.file=${join(dir, 'prometheus.yml')}`, `--storage.tsdb.path=${db}`, '--storage.tsdb.retention.time=100y',
    `--web.listen-address=127.0.0.1:${port}`,
  ], { stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  prom.stderr!.on('data', (b: Buffer) => (log = (log + b.toString()).slice(-4000)));
  const base = `http://127.0.0.1:${port}`;
  try {
    // Ready within 2 minutes even on a busy machine; give up with its log otherwise.
    for (let i = 0; ; i++) {
      const ok = await fetch(`${base}/-/ready`).then((x) => x.ok, () => false);
      if (ok) break;
      if (i >= 240 || prom.exitCode !== null) throw new Error(`prometheus not ready: ${log}`);
      await sleep(500);
    }
    const query = async (q: string, atMs: number) => {
      const res = await fetch(`${base}/api/v1/query?${new URLSearchParams({ query: q, time: String(atMs / 1000) })}`);
      const body = (await res.json()) as { status: string; data: { result: { value: [number, string] }[] } };
      expect(body.status, q).toBe('success');
      return body.data.result.map((x) => Number(x.value[1]));
    };

    const W = r.windows!.windowMs;
    let checked = 0;
    const p95s: number[] = [];
    for (const [op, encs] of Object.entries(r.windows!.responseMs)) {
      const sel = `loadlab_client_response_seconds_bucket{operation="${op}",scenario="prom-p95"}`;
      const windowQ = `histogram_quantile(0.95, sum by (le) (${sel} - ${sel} offset ${W / 1000}s))`;
      // Whole windows only (the last ends with the run, not W after the one before).
      for (let i = 1; i < encs.length - 1; i++) {
        const h = mergeWindowEncodings([encs[i]!]);
        if (!h || h.totalCount < 20) continue;
        const hdrP95 = summarize(h).p95 / 1000;
        const [v] = await query(windowQ, START + (i + 1) * W);
        const j = DURATION_BUCKETS_S.findIndex((b) => b >= v!);
        const upper = j < 0 ? Infinity : DURATION_BUCKETS_S[j]!;
        const lower = j <= 0 ? 0 : DURATION_BUCKETS_S[j - 1]!;
        const where = `${op} window ${i}: Prometheus ${v} s in (${lower}, ${upper}], report.json p95 ${hdrP95} s`;
        // HDR reports the top of its 0.1 % bucket: it may pass the classic bound by that much.
        expect(hdrP95 >= lower && hdrP95 <= upper * 1.001, where).toBe(true);
        checked++;
        p95s.push(hdrP95);
      }
    }
    expect(checked).toBeGreaterThanOrEqual(4);
    // Not only instant answers: windows whose p95 lies in different buckets above 100 ms.
    expect(new Set(p95s.filter((p) => p > 0.1).map((p) => DURATION_BUCKETS_S.findIndex((b) => b >= p))).size).toBeGreaterThanOrEqual(2);
    // The dashboard's form answers in the middle of the run.
    const [p95] = await query('histogram_quantile(0.95, sum by (le) (rate(loadlab_client_response_seconds_bucket{scenario="prom-p95"}[1m])))', START + 60_000);
    expect(Number.isFinite(p95)).toBe(true);
    expect(p95).toBeGreaterThan(0);
  } finally {
    prom.kill('SIGTERM');
  }
}, 300_000);
