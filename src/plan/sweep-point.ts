/**
 * One point of a sweep: the scenario with one workersMax, run on the embedded simulator with one
 * seed, boiled down to what a plan row shows (the SLOs' values, a few measured figures, the
 * workers' billed seconds). The same code runs in the main thread (`--jobs 1`) and in each
 * worker thread (sweep-worker.ts), so a point's figures do not depend on where it ran.
 */
import { deepFreeze } from '../contract/deep-freeze.js';
import { runScenario } from '../load/run-scenario.js';
import type { Scenario } from '../load/scenario/schema.js';
import { inProcessTarget } from '../load/targets/in-process/for-scenario.js';
import type { Target, WorkerLifetime } from '../load/targets/target.js';
import { METRICS } from '../report/threshold-metrics.js';
import { parseThreshold, type Threshold } from '../report/thresholds.js';
import { billWorkers, type WorkerBill } from './cost.js';
import { evaluateSlos, type SloValue } from './slo.js';

/** What every point of one sweep shares (sent once to each worker thread). */
export interface SweepBase {
  scenario: Scenario;
  /** SLO expressions (already checked). */
  slos: string[];
  /** workersMin at every point: a number (capped at the point's workersMax) or `max` (= workersMax). */
  workersMin: number | 'max';
}

export interface PointTask {
  workersMax: number;
  seed: number | string;
}

/** Figures of one run that a plan row shows. */
export interface PointFigures {
  jobsAccepted: number;
  jobsCompleted: number;
  turnaroundP95Ms: number | null;
  queueDelayMeanMs: number | null;
  queueDelayP95Ms: number | null;
  /** Share of requests answered 429. */
  limitedRate: number | null;
  elapsedMs: number;
  /** Requests sent (for the throughput figure). */
  requests: number;
}

export interface PointResult {
  workersMax: number;
  workersMin: number;
  seed: number | string;
  slo: SloValue[];
  figures: PointFigures;
  bill: WorkerBill;
}

export function workersMinAt(base: Pick<SweepBase, 'workersMin'>, workersMax: number): number {
  return base.workersMin === 'max' ? workersMax : Math.min(base.workersMin, workersMax);
}

/** The scenario of one point: a new object (a loaded scenario is frozen); no thresholds (SLOs are checked here). */
export function pointScenario(base: SweepBase, workersMax: number): Scenario {
  const sc = base.scenario;
  return deepFreeze({ ...sc, endpoint: { ...sc.endpoint, workersMax, workersMin: workersMinAt(base, workersMax) }, thresholds: [] });
}

const value = (r: Parameters<typeof METRICS[string]['value']>[0], metric: string) => METRICS[metric]!.value(r, {});

export async function runPoint(base: SweepBase, task: PointTask): Promise<PointResult> {
  const sc = pointScenario(base, task.workersMax);
  const slos = base.slos.map((e) => parseThreshold(e) as Threshold);
  let lifetimes: ((nowMs: number) => WorkerLifetime[]) | undefined;
  const target = (s: Scenario, seed: number | string): Target => {
    const t = inProcessTarget(s, seed);
    lifetimes = t.watchWorkers();
    return t;
  };
  const r = await runScenario(sc, { seed: task.seed, target, coldStarts: slos.some((t) => t.metric.startsWith('cold_start_')) });
  const requests = Object.values(r.operations).reduce((n, o) => n + o.requests, 0);
  return {
    workersMax: task.workersMax,
    workersMin: sc.endpoint.workersMin,
    seed: task.seed,
    slo: evaluateSlos(r, slos),
    figures: {
      jobsAccepted: r.jobs.accepted,
      jobsCompleted: value(r, 'jobs_completed') ?? 0,
      turnaroundP95Ms: value(r, 'turnaround_p95_ms'),
      queueDelayMeanMs: value(r, 'queue_delay_mean_ms'),
      queueDelayP95Ms: value(r, 'queue_delay_p95_ms'),
      limitedRate: value(r, 'limited_rate'),
      elapsedMs: r.elapsedMs,
      requests,
    },
    bill: billWorkers(lifetimes!(r.elapsedMs), sc.endpoint.workersMin, r.elapsedMs, sc.endpoint.scaler.type === 'REQUEST_COUNT' ? 0 : sc.endpoint.idleTimeoutMs),
  };
}
