/**
 * `loadlab run` in-process throughput: the steady-mix scenario (its traffic, endpoint and clients
 * unchanged) over a longer traffic phase, so start-up is amortised, and the 24 h diurnal day as a
 * user runs it (`loadlab run scenarios/diurnal-day.yaml`, a whole process: start-up and reports
 * included). Prints simulated requests per wall-second (target ≥ 500 000/s), the day's wall and
 * CPU time, and where the CPU of its two busiest hours goes (cpu-split.ts; target: what the runner
 * adds to the simulator and the clients ≤ 15 %). Usage:
 *   node dist/bench/runner-inprocess.js [steadyHours=12] [skipDiurnal=0]
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cpuSplit, PARTS } from './cpu-split.js';
import { runMeasured } from './tree-cpu.js';
import { loadScenarioFile } from '../src/load/scenario/loader.js';
import { runScenario } from '../src/load/run-scenario.js';
import type { Scenario } from '../src/load/scenario/schema.js';
import { formatNumber } from './figures-table.js';
import { recordFigure } from './figures.js';

const root = fileURLToPath(new URL('../../scenarios/', import.meta.url));

function load(name: string): Scenario {
  const l = loadScenarioFile(`${root}${name}.yaml`);
  if (!l.ok) throw new Error(JSON.stringify(l.issues));
  return l.scenario;
}

export interface RunnerBench {
  scenario: string;
  virtualHours: number;
  requests: number;
  jobs: number;
  wallSeconds: number;
  requestsPerWallSecond: number;
  /** User + system CPU seconds of this process during the run (less sensitive to a busy machine). */
  cpuSeconds: number;
  requestsPerCpuSecond: number;
  peakRssMb: number;
}

export async function benchScenario(sc: Scenario): Promise<RunnerBench> {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const r = await runScenario(sc);
  const wallSeconds = (performance.now() - t0) / 1000;
  const c = process.cpuUsage(c0);
  const cpuSeconds = (c.user + c.system) / 1e6;
  const requests = Object.values(r.operations).reduce((n, o) => n + o.requests, 0);
  return {
    scenario: sc.name,
    virtualHours: +(r.elapsedMs / 3_600_000).toFixed(2),
    requests,
    jobs: r.jobs.accepted,
    wallSeconds: +wallSeconds.toFixed(2),
    requestsPerWallSecond: Math.round(requests / wallSeconds),
    cpuSeconds: +cpuSeconds.toFixed(2),
    requestsPerCpuSecond: Math.round(requests / cpuSeconds),
    peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
  };
}

const isMain = import.meta.url === `file://${process.argv[1]}`;
if (isMain) {
  const hours = Number(process.argv[2] ?? 12);
  const steady = { ...load('steady-mix'), durationMs: Math.round(hours * 3_600_000) };
  // Three runs in one process (the machine may be shared: the best run is the figure, all are printed).
  const runs: RunnerBench[] = [];
  for (let i = 0; i < 3; i++) runs.push(await benchScenario(steady));
  const a = runs.reduce((b, r) => (r.requestsPerWallSecond > b.requestsPerWallSecond ? r : b));
  console.log(
    `steady-mix ×${hours} h: ${a.requests} requests; best of 3: ${a.wallSeconds} s wall = ${a.requestsPerWallSecond} simulated requests/s (target ≥ 500000); ${a.requestsPerCpuSecond} per CPU-second`,
  );
  recordFigure(
    'runner-inprocess',
    `steady-mix ×${hours} h in process: simulated requests per wall-second (best of 3)`,
    formatNumber(a.requestsPerWallSecond),
    '≥ 500 000',
  );
  console.log(`  runs: ${runs.map((r) => `${r.requestsPerWallSecond}/s (${r.wallSeconds} s)`).join(', ')}; peak RSS ${a.peakRssMb} MB`);
  if (process.argv[3] !== '1') await benchDay();
}

/** The diurnal day through the CLI (wall, CPU of the process tree), then a profile of its busiest two hours. */
async function benchDay(): Promise<void> {
  const repo = fileURLToPath(new URL('../../', import.meta.url));
  const tmp = mkdtempSync(join(tmpdir(), 'loadlab-day-'));
  try {
    const day = await runMeasured(process.execPath, ['bin/loadlab.js', 'run', 'scenarios/diurnal-day.yaml', '--out', join(tmp, 'day')], {
      cwd: repo,
      env: { ...process.env, CI: 'true' },
    });
    if (day.exitCode !== 0) throw new Error(`diurnal-day exited ${day.exitCode}: ${day.stderr.slice(0, 500)}`);
    const wall = day.wallMs / 1000;
    const cpu = day.cpuMs / 1000;
    recordFigure(
      'runner-inprocess',
      'loadlab run scenarios/diurnal-day.yaml (24 h, 8.6 M jobs): wall time (CPU)',
      `${wall.toFixed(1)} s (${cpu.toFixed(1)} s)`,
      '< 30 s',
    );
    console.log(`diurnal-day through loadlab run: ${wall.toFixed(1)} s wall, ${cpu.toFixed(1)} CPU-s (target < 30 s wall)`);
    // Its two busiest hours (the noon peak), profiled: one process (the semi-space given, no launcher).
    const slice = readFileSync(join(root, 'diurnal-day.yaml'), 'utf8')
      .replace(/^durationMs: .*$/m, 'durationMs: 7200000')
      .replace(/peakAtMs: \d+/, 'peakAtMs: 3600000')
      .replace(/jobs_completed > \d+/, 'jobs_completed > 0')
      .replace(/^\$schema: .*$/m, '');
    writeFileSync(join(tmp, 'peak.yaml'), slice);
    const profDir = join(tmp, 'prof');
    const p = await runMeasured(
      process.execPath,
      ['--max-semi-space-size=32', '--cpu-prof', `--cpu-prof-dir=${profDir}`, 'bin/loadlab.js', 'run', join(tmp, 'peak.yaml'), '--out', join(tmp, 'peak')],
      { cwd: repo, env: { ...process.env, CI: 'true' } },
    );
    if (p.exitCode !== 0) throw new Error(`the profiled peak exited ${p.exitCode}: ${p.stderr.slice(0, 500)}`);
    const split = cpuSplit(join(profDir, readdirSync(profDir)[0]!));
    const pct = (v: number) => `${(v * 100).toFixed(0)} %`;
    recordFigure(
      'runner-inprocess',
      "diurnal-day's busiest 2 h, CPU profile: simulator / drive loop / clients / runner's own / reports / GC / Node",
      PARTS.map((k) => pct(split[k])).join(' / '),
      "runner's own ≤ 15 %",
    );
    console.log(`  CPU of its busiest 2 h: ${PARTS.map((k) => `${k} ${pct(split[k])}`).join(', ')} (runner: recording, billing, progress, checks)`);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}
