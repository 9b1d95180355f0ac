/**
 * Micro-benchmark of the simulator core without the API: jobs submitted straight to the endpoint
 * (limits off), lognormal durations, retention on. Separates the core's cost from the API's
 * (compare with sim-throughput.ts) and reports the time spent in garbage collection by kind, the
 * usual suspect when a change moves allocations around. Usage:
 *   node dist/bench/sim-core.js [ratePerSec=100] [jobs=2000000]
 */
import { PerformanceObserver, constants } from 'node:perf_hooks';
import { parseSimConfig } from '../src/contract/endpoint-config.js';
import { Simulator } from '../src/sim/simulator.js';
import { formatNumber } from './figures-table.js';
import { recordFigure } from './figures.js';

export interface CoreBenchResult {
  ratePerSec: number;
  jobs: number;
  wallSeconds: number;
  jobsPerSec: number;
  eventsPerJob: number;
  /** ms of GC pauses by kind (scavenge: young generation; markCompact: old). */
  gcMs: { scavenge: number; markCompact: number; other: number };
  peakRssMb: number;
}

export async function simCore(ratePerSec: number, jobs: number): Promise<CoreBenchResult> {
  const parsed = parseSimConfig({
    seed: 1,
    endpoints: [
      {
        id: 'bench',
        workersMax: Math.ceil(ratePerSec * 2.5) + 10,
        idleTimeoutMs: 5000,
        jobDurationMs: { dist: 'lognormal', medianMs: 1000, p95Ms: 3000 },
        limits: { enabled: false },
      },
    ],
  });
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
  const sim = new Simulator(parsed.config);
  const ep = sim.endpoints.get('bench')!;
  const rng = sim.random.stream('arrivals');
  const input = { prompt: 'hello' };
  const meanGapMs = 1000 / ratePerSec;
  const st = { sent: 0, nextAt: new Float64Array(1) };
  const arrive = () => {
    ep.submit({ kind: 'run', id: sim.newJobId(false), input });
    if (++st.sent >= jobs) return;
    st.nextAt[0]! += -meanGapMs * Math.log(1 - rng.next());
    sim.sched.again(timer, st.nextAt[0]!);
  };
  const timer = sim.sched.at(0, arrive);

  const gcMs = { scavenge: 0, markCompact: 0, other: 0 };
  const obs = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      const kind = (e as unknown as { detail?: { kind?: number } }).detail?.kind;
      if (kind === constants.NODE_PERFORMANCE_GC_MINOR) gcMs.scavenge += e.duration;
      else if (kind === constants.NODE_PERFORMANCE_GC_MAJOR) gcMs.markCompact += e.duration;
      else gcMs.other += e.duration;
    }
  });
  obs.observe({ entryTypes: ['gc'] });
  const t0 = process.hrtime.bigint();
  sim.sched.runUntilIdle();
  const wallSeconds = Number(process.hrtime.bigint() - t0) / 1e9;
  // GC entries are delivered asynchronously.
  await new Promise((r) => setTimeout(r, 50));
  obs.disconnect();
  const round = (x: number) => Math.round(x);
  return {
    ratePerSec,
    jobs,
    wallSeconds,
    jobsPerSec: round(jobs / wallSeconds),
    eventsPerJob: sim.sched.eventsRun / jobs,
    gcMs: { scavenge: round(gcMs.scavenge), markCompact: round(gcMs.markCompact), other: round(gcMs.other) },
    peakRssMb: round(process.resourceUsage().maxRSS / 1024),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const r = await simCore(Number(process.argv[2] ?? 100), Number(process.argv[3] ?? 2_000_000));
  console.log(JSON.stringify(r));
  const at = `${formatNumber(r.ratePerSec)} jobs/s, no API`;
  recordFigure('sim-core', `${at}: jobs per wall-second`, formatNumber(r.jobsPerSec));
  recordFigure(
    'sim-core',
    `${at}: GC pauses (scavenge / mark-compact)`,
    `${formatNumber(r.gcMs.scavenge)} / ${formatNumber(r.gcMs.markCompact)} ms per ${formatNumber(r.jobs)} jobs`,
  );
}
