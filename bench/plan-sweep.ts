/**
 * `loadlab plan` throughput (issue 19): a sweep of workersMax 1..20 × 3 seeds of 1 h at 50 jobs/s
 * (Poisson arrivals, run-poll clients, exponential jobs of mean 15 ms: 0.75 Erlang, so every point
 * serves its traffic and the figure is the runner's per job, not a backlog's polls),
 * `--exhaustive --jobs 2`, through the real CLI. Prints the wall time (target < 20 s) and
 * arrivals per second per thread. Usage:
 *   node dist/bench/plan-sweep.js [hours=1] [jobs=2]
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { formatNumber } from './figures-table.js';
import { recordFigure } from './figures.js';

const hours = Number(process.argv[2] ?? 1);
const threads = Number(process.argv[3] ?? 2);
const RATE = 50;
const bin = fileURLToPath(new URL('../../bin/loadlab.js', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'loadlab-bench-plan-'));
const file = join(dir, 'plan-sweep.yaml');
writeFileSync(
  file,
  JSON.stringify({
    name: 'plan-sweep',
    seed: 1,
    durationMs: Math.round(hours * 3_600_000),
    drainMs: 60_000,
    endpoint: { id: 'sweep', workersMax: 20, jobDurationMs: { dist: 'exponential', meanMs: 15 } },
    traffic: [
      {
        name: 'jobs',
        arrival: { process: 'poisson', ratePerSec: RATE },
        client: { behaviour: 'run-poll', poll: { baseMs: 200, factor: 2, maxMs: 2000, jitter: 0.2 } },
      },
    ],
    slo: ['turnaround_p95_ms{flow=jobs} < 1000', 'limited_rate < 0.001'],
  }),
);
const t0 = performance.now();
const r = spawnSync(
  process.execPath,
  [bin, 'plan', file, '--workers-max', '1..20', '--seeds', '3', '--exhaustive', '--jobs', String(threads), '--out', join(dir, 'out')],
  { encoding: 'utf8' },
);
const wallSeconds = (performance.now() - t0) / 1000;
if (r.status !== 0 && r.status !== 99) throw new Error(`loadlab plan exited ${r.status}: ${r.stderr}`);
const plan = JSON.parse(readFileSync(join(dir, 'out', 'plan.json'), 'utf8')) as { rows: { measured: { jobsAccepted: number[] } }[] };
rmSync(dir, { recursive: true, force: true });
const runs = plan.rows.length * 3;
const arrivals = Math.round(runs * RATE * hours * 3600);
const accepted = plan.rows.reduce((n, row) => n + row.measured.jobsAccepted.reduce((a, b) => a + b, 0), 0);
const perThread = Math.round(arrivals / wallSeconds / threads);
console.log(r.stdout.trim());
console.log(JSON.stringify({ runs, hours, threads, arrivals, accepted, wallSeconds: +wallSeconds.toFixed(1), arrivalsPerSecPerThread: perThread }));
recordFigure(
  'plan-sweep',
  `20 workersMax × 3 seeds × ${hours} h at ${RATE} jobs/s, --exhaustive --jobs ${threads}: wall time`,
  `${wallSeconds.toFixed(1)} s`,
  '< 20 s',
);
recordFigure('plan-sweep', 'simulated arrivals per wall-second per thread', formatNumber(perThread), '≥ 270 000');
