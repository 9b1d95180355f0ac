/**
 * Oracle: a warm M/M/c endpoint (c workers always up, no cold start, Poisson arrivals, exponential
 * service, limits off) against Erlang C, and Little's law on the same runs. Also the Erlang C
 * formula itself against hand-computed values.
 *
 * Job counts per case were chosen from batch-means standard errors so the tolerance is about
 * 3 standard errors of the estimate: c = 10 at low load waits rarely, so it needs the most jobs.
 * LOADLAB_ORACLE_REPORT=1 prints each case's errors and throughput.
 */
import { describe, expect, it } from 'vitest';
import { erlangB, erlangC, erlangCFromMs, ErlangCInputError, serversForWait } from '../../src/plan/erlang-c.js';
import { parseSimConfig } from '../../src/contract/endpoint-config.js';
import { Simulator } from '../../src/sim/simulator.js';

const MEAN_SERVICE_MS = 1000;

interface MmcRun {
  /** Mean queue delay (ms) of jobs that arrived after the warm-up, from `job.started`. */
  meanDelayMs: number;
  /** Time-average jobs in the system / in the queue / running over the measurement window. */
  L: number;
  Lq: number;
  busy: number;
  /** Arrivals per ms in the window and mean time in system (ms) of those arrivals. */
  lambda: number;
  W: number;
  Wq: number;
}

/** Simulates `jobs` Poisson arrivals at utilisation `rho` on `c` warm workers; the first 2 % warm up. */
function simulateMmc(c: number, rho: number, jobs: number, seed: number): MmcRun {
  const parsed = parseSimConfig({
    seed,
    endpoints: [
      {
        id: 'ep',
        workersMin: c,
        workersMax: c,
        coldStartMs: 0,
        jobDurationMs: { dist: 'exponential', meanMs: MEAN_SERVICE_MS },
        limits: { enabled: false },
        // Keeps memory flat: a finished job is dropped at once (nothing reads it back).
        retention: { runMs: 0 },
      },
    ],
  });
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
  const sim = new Simulator(parsed.config);
  const ep = sim.endpoints.get('ep')!;
  const arrivals = sim.random.stream('arrivals');
  const lambdaPerMs = (c * rho) / MEAN_SERVICE_MS;
  const warm = Math.floor(jobs / 50);
  const arrivedAt = new Float64Array(jobs);

  // Measurement window: from the first counted arrival to the last arrival (virtual ms).
  let t0 = Infinity;
  let t1 = Infinity;
  let inQueue = 0;
  let running = 0;
  let lastMs = 0;
  let areaL = 0;
  let areaLq = 0;
  let areaBusy = 0;
  let delaySum = 0;
  let delayN = 0;
  let sojournSum = 0;
  let sojournN = 0;
  const integrate = (atMs: number) => {
    const from = Math.max(lastMs, t0);
    const to = Math.min(atMs, t1);
    if (to > from) {
      areaL += (inQueue + running) * (to - from);
      areaLq += inQueue * (to - from);
      areaBusy += running * (to - from);
    }
    lastMs = atMs;
  };
  sim.bus.on((e) => {
    if (e.type !== 'job.accepted' && e.type !== 'job.started' && e.type !== 'job.finished') return;
    integrate(e.atMs);
    // Ids carry their submission sequence number (ids.ts): job k is the k-th arrival.
    const k = sim.ids.seqOf(e.jobId);
    if (e.type === 'job.accepted') inQueue++;
    else if (e.type === 'job.started') {
      inQueue--;
      running++;
      if (k >= warm) {
        delaySum += e.delayTimeMs;
        delayN++;
      }
    } else {
      running--;
      if (k >= warm && arrivedAt[k]! < t1) {
        sojournSum += e.atMs - arrivedAt[k]!;
        sojournN++;
      }
    }
  });

  let t = 0;
  let i = 0;
  const arrive = () => {
    if (i === warm) t0 = sim.nowMs;
    arrivedAt[i] = sim.nowMs;
    if (i === jobs - 1) t1 = sim.nowMs;
    ep.submit({ kind: 'run', id: sim.newJobId(false), input: {} });
    if (++i < jobs) {
      // Inter-arrival times are exponential; the scheduler floors each instant to a whole ms.
      t += -Math.log(1 - arrivals.next()) / lambdaPerMs;
      sim.sched.at(t, arrive);
    }
  };
  sim.sched.at(0, arrive);
  sim.sched.runUntilIdle();
  expect(ep.jobs.size).toBe(0);

  const span = t1 - t0;
  let counted = 0;
  for (let k = warm; k < jobs; k++) if (arrivedAt[k]! < t1) counted++;
  const lambda = counted / span;
  return {
    meanDelayMs: delaySum / delayN,
    L: areaL / span,
    Lq: areaLq / span,
    busy: areaBusy / span,
    lambda,
    W: sojournSum / sojournN,
    Wq: delaySum / delayN,
  };
}

describe('Erlang C formula', () => {
  it('matches hand-computed M/M/1 and M/M/2 values', () => {
    // M/M/1: C = ρ, Wq = ρ / (μ - λ).
    const m1 = erlangC({ servers: 1, arrivalRate: 0.8, serviceRate: 1 });
    expect(m1.probabilityOfWaiting).toBeCloseTo(0.8, 12);
    expect(m1.meanQueueWait).toBeCloseTo(4, 12);
    expect(m1.meanInSystem).toBeCloseTo(4, 12); // ρ / (1 - ρ)
    // M/M/2, a = 1: C = (1/2 · 1/(1-1/2)) / (1 + 1 + 1) = 1/3; Wq = C / (2μ - λ) = 1/3.
    const m2 = erlangC({ servers: 2, arrivalRate: 1, serviceRate: 1 });
    expect(m2.probabilityOfWaiting).toBeCloseTo(1 / 3, 12);
    expect(m2.meanQueueWait).toBeCloseTo(1 / 3, 12);
    expect(m2.meanQueueLength).toBeCloseTo(1 / 3, 12);
  });

  it('agrees with the textbook table value C(10, 8) ≈ 0.409', () => {
    // a = 8 Erlangs on 10 servers: B(10, 8) = 0.1217, C = 0.4092 (standard Erlang tables).
    expect(erlangB(10, 8)).toBeCloseTo(0.12166, 4);
    const r = erlangCFromMs(10, 125, 1000);
    expect(r.utilisation).toBeCloseTo(0.8, 12);
    expect(r.probabilityOfWaiting).toBeCloseTo(0.40918, 4);
    expect(r.meanQueueWait).toBeCloseTo(0.40918 / (0.01 - 0.008), 0); // ≈ 204.6 ms
  });

  it('stays finite for thousands of servers', () => {
    const r = erlangC({ servers: 5000, arrivalRate: 4900, serviceRate: 1 });
    expect(Number.isFinite(r.meanQueueWait)).toBe(true);
    expect(r.probabilityOfWaiting).toBeGreaterThan(0);
    expect(r.probabilityOfWaiting).toBeLessThan(1);
  });

  it('refuses inputs with no steady state, with stable codes', () => {
    const code = (f: () => unknown) => {
      try {
        f();
      } catch (e) {
        return e instanceof ErlangCInputError ? e.code : 'other';
      }
      return 'none';
    };
    expect(code(() => erlangC({ servers: 2, arrivalRate: 2, serviceRate: 1 }))).toBe('ERLANG_ERR_UNSTABLE');
    expect(code(() => erlangC({ servers: 0, arrivalRate: 1, serviceRate: 1 }))).toBe('ERLANG_ERR_SERVERS');
    expect(code(() => erlangC({ servers: 1.5, arrivalRate: 1, serviceRate: 1 }))).toBe('ERLANG_ERR_SERVERS');
    expect(code(() => erlangC({ servers: 1, arrivalRate: 0, serviceRate: 1 }))).toBe('ERLANG_ERR_RATE');
    expect(code(() => erlangC({ servers: 1, arrivalRate: 1, serviceRate: Number.NaN }))).toBe('ERLANG_ERR_RATE');
  });

  it('finds the fewest servers meeting a mean-wait target', () => {
    // 8 Erlangs: 10 servers wait 204.6 ms on average, 11 servers about 81.7 ms.
    expect(serversForWait(0.008, 0.001, 250)).toBe(10);
    expect(serversForWait(0.008, 0.001, 100)).toBe(11);
    expect(erlangC({ servers: 11, arrivalRate: 0.008, serviceRate: 0.001 }).meanQueueWait).toBeLessThan(100);
    expect(serversForWait(0.008, 0.001, 0, 20)).toBeUndefined();
  });
});

/** [servers, utilisation, jobs]; tolerance 5 % up to ρ = 0.8, 10 % at 0.9. */
const CASES: [number, number, number][] = [
  [1, 0.5, 300_000],
  [1, 0.6, 300_000],
  [1, 0.7, 300_000],
  [1, 0.8, 400_000],
  [1, 0.9, 400_000],
  [4, 0.5, 500_000],
  [4, 0.6, 500_000],
  [4, 0.7, 500_000],
  [4, 0.8, 500_000],
  [4, 0.9, 400_000],
  [10, 0.5, 2_000_000],
  [10, 0.6, 1_600_000],
  [10, 0.7, 1_200_000],
  [10, 0.8, 800_000],
  [10, 0.9, 400_000],
];

describe('warm M/M/c endpoint against Erlang C', () => {
  it.each(CASES)("c=%i ρ=%f over %i jobs: queue delay, Little's law", (c, rho, jobs) => {
    const lambda = (c * rho) / MEAN_SERVICE_MS;
    const ref = erlangC({ servers: c, arrivalRate: lambda, serviceRate: 1 / MEAN_SERVICE_MS });
    const startedMs = performance.now();
    const r = simulateMmc(c, rho, jobs, 1);
    if (process.env.LOADLAB_ORACLE_REPORT) {
      const pct = (x: number) => `${((x - 1) * 100).toFixed(2)}%`;
      const jobsPerS = Math.round(jobs / ((performance.now() - startedMs) / 1000));
      console.log(
        `c=${c} rho=${rho} Wq sim ${r.meanDelayMs.toFixed(2)} ms vs ${ref.meanQueueWait.toFixed(2)} ms (${pct(r.meanDelayMs / ref.meanQueueWait)}); ` +
          `L/λW ${pct(r.L / (r.lambda * r.W))}; Lq/λWq ${pct(r.Lq / (r.lambda * r.Wq))}; busy/a ${pct(r.busy / ref.offeredLoad)}; ${jobsPerS} jobs/s`,
      );
    }
    const tol = rho >= 0.9 ? 0.1 : 0.05;
    expect(Math.abs(r.meanDelayMs / ref.meanQueueWait - 1)).toBeLessThan(tol);
    // Little's law holds for any stable queue, whatever the model: L = λW and Lq = λWq.
    expect(Math.abs(r.L / (r.lambda * r.W) - 1)).toBeLessThan(0.01);
    expect(Math.abs(r.Lq / (r.lambda * r.Wq) - 1)).toBeLessThan(0.01);
    // Busy workers on average = offered load a = λ/μ.
    expect(Math.abs(r.busy / ref.offeredLoad - 1)).toBeLessThan(0.01);
    expect(Math.abs(r.L / ref.meanInSystem - 1)).toBeLessThan(tol);
  });
});
