/**
 * Simulator throughput (issue 2): one endpoint, Poisson /run arrivals through the in-process API,
 * lognormal job durations, retention on (30 min), for a fixed number of jobs. Reports simulated
 * jobs and events per wall-second and peak RSS. Usage:
 *   node dist/bench/sim-throughput.js [ratePerSec=100] [jobs=8640000]
 */
import { spawnSync } from 'node:child_process';
import { Api } from '../src/api/api.js';
import { PreparedRoute } from '../src/api/prepared-route.js';
import { parseSimConfig } from '../src/contract/endpoint-config.js';
import { Simulator } from '../src/sim/simulator.js';
import { formatNumber } from './figures-table.js';
import { recordFigure } from './figures.js';

export interface SimBenchResult {
  ratePerSec: number;
  jobs: number;
  /** Span of the arrivals in virtual hours. */
  virtualHours: number;
  wallSeconds: number;
  jobsPerSec: number;
  /** Jobs per CPU-second of this process (all threads, GC helpers included): steadier than wall time on a shared machine. */
  jobsPerCpuSec: number;
  eventsPerSec: number;
  completed: number;
  peakRssMb: number;
}

export function simThroughput(ratePerSec: number, jobs: number): SimBenchResult {
  // Enough workers for the load (mean job ~1.3 s), limits scaled so the /run rate limit is not what is measured.
  const workersMax = Math.ceil(ratePerSec * 2.5) + 10;
  const parsed = parseSimConfig({
    seed: 1,
    endpoints: [
      {
        id: 'bench',
        workersMax,
        idleTimeoutMs: 5000,
        jobDurationMs: { dist: 'lognormal', medianMs: 1000, p95Ms: 3000 },
        limits: { scale: Math.max(1, Math.ceil((ratePerSec * 10 * 2) / 1000)) },
      },
    ],
  });
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
  const sim = new Simulator(parsed.config);
  const api = new Api(sim, { apiKeys: [] });
  const rng = sim.random.stream('arrivals');
  const meanGapMs = 1000 / ratePerSec;
  let ok = 0;
  const onAnswer = (r: { status: number }) => {
    if (r.status === 200) ok++;
  };
  const req = { method: 'POST', path: '/v2/bench/run', authorization: 'k', body: { input: { prompt: 'hello' } } };
  // The same request every time: its head is checked once (as the in-process target does).
  const route = api.prepare(req);
  if (!(route instanceof PreparedRoute)) throw new Error(JSON.stringify(route));
  // Arrival times are kept in fractional ms so the rate is exact; the scheduler rounds down. State
  // lives in an object and one timer is re-armed, so the driver itself allocates nothing per job.
  // (A Float64Array: a number field holding a fraction would box a new heap number per store.)
  const st = { sent: 0, nextAt: new Float64Array(1) };
  const arrive = () => {
    api.handlePrepared(route, undefined, req, onAnswer);
    if (++st.sent >= jobs) return;
    st.nextAt[0]! += -meanGapMs * Math.log(1 - rng.next());
    sim.sched.again(timer, st.nextAt[0]!);
  };
  const timer = sim.sched.at(0, arrive);
  const t0 = process.hrtime.bigint();
  const cpu0 = process.cpuUsage();
  sim.sched.runUntilIdle();
  const wallSeconds = Number(process.hrtime.bigint() - t0) / 1e9;
  const cpu = process.cpuUsage(cpu0);
  const cpuSeconds = (cpu.user + cpu.system) / 1e6;
  const h = sim.endpoints.get('bench')!.health();
  return {
    ratePerSec,
    jobs,
    virtualHours: st.nextAt[0]! / 3_600_000,
    wallSeconds,
    jobsPerSec: ok / wallSeconds,
    jobsPerCpuSec: ok / cpuSeconds,
    eventsPerSec: sim.sched.eventsRun / wallSeconds,
    completed: h.jobs.completed,
    peakRssMb: process.resourceUsage().maxRSS / 1024,
  };
}

const isMain = import.meta.url === `file://${process.argv[1]}`;
if (isMain && process.argv[2]) {
  const r = simThroughput(Number(process.argv[2]), Number(process.argv[3] ?? 8_640_000));
  console.log(JSON.stringify(r));
  const at = `${formatNumber(r.ratePerSec)} jobs/s`;
  recordFigure(
    'sim-throughput',
    `${at}: simulated jobs per wall-second`,
    formatNumber(r.jobsPerSec),
    r.ratePerSec === 100 ? '≥ 1 000 000' : 'flat: as at 100 jobs/s',
  );
  recordFigure('sim-throughput', `${at}: jobs per CPU-second`, formatNumber(r.jobsPerCpuSec));
  recordFigure('sim-throughput', `${at}: peak RSS`, `${formatNumber(r.peakRssMb)} MB`, '< 1 GB');
} else if (isMain) {
  // The issue's three runs, each in its own process (peak RSS per run): 100 jobs/s for 24 h
  // (8.64 M jobs), then the same number of jobs at 10x and 100x the rate (jobs/s should stay flat).
  for (const rate of [100, 1000, 10_000]) {
    spawnSync(process.execPath, [...process.execArgv, process.argv[1]!, String(rate), '8640000'], { stdio: 'inherit' });
  }
}
