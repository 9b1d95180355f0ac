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
import type { Target } from '../load/targets/target.js';
import { METRICS } from '../report/threshold-metrics.js';
import { parseThreshold, type Threshold } from '../report/thresholds.js';
import { endpointSchema } from '../contract/endpoint-config.js';
import { withKnobs, type Knobs } from './grid.js';
import type { EngineLimitsGiven } from '../load/scenario/engine-defaults.js';
import { billingRule, type WorkerBill } from '../report/worker-bill.js';
import { evaluateSlos, type SloValue } from './slo.js';
import type { BalancerCause } from '../contract/sim-events.js';
import { mergeBalancerFailed } from '../report/merge/counters.js';
import { isStreaming } from '../load/behaviours/registry.js';
import type { RunResult } from '../report/run-result.js';

/** What every point of one sweep shares (sent once to each worker thread). */
export interface SweepBase {
  scenario: Scenario;
  /** SLO expressions (already checked). */
  slos: string[];
  /** workersMin at every point: a number (capped at the point's workersMax) or `max` (= workersMax). */
  workersMin: number | 'max';
  /** What the scenario's llm.engine gave of its batch limits (the loader's): a point sweeping gpus takes vLLM's defaults on its list for the rest. */
  engineGiven?: EngineLimitsGiven;
}

export interface PointTask {
  workersMax: number;
  seed: number | string;
  /** Endpoint knobs of a `--grid` combination (grid.ts); empty without a grid. */
  knobs: Knobs;
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
  /** Jobs (a load-balancing endpoint: requests) that ended FAILED or TIMED_OUT, the balancer's failures included. */
  jobsFailed: number;
  /** A load-balancing point only: the requests its balancer ended, by cause (RunResult `operations.*.balancerFailed`). */
  balancerFailed?: Record<BalancerCause, number>;
  /** With a streaming flow only: the time to first token's p95 over the streaming flows (ms). */
  ttftP95Ms?: number | null;
  /** An `llm.engine` endpoint's share of request time spent waiting inside the engine (RunResult `engine.waitingShareOfRequestTime`); absent for other endpoints. */
  engineWaitingShare?: number | null;
}

export interface PointResult {
  workersMax: number;
  knobs: Knobs;
  workersMin: number;
  seed: number | string;
  slo: SloValue[];
  figures: PointFigures;
  bill: WorkerBill;
}

/** workersMin at a point: the grid's, else `--workers-min`'s, capped at workersMax (`max`: equal). */
export function workersMinAt(base: Pick<SweepBase, 'workersMin'>, workersMax: number, knobs: Knobs = {}): number {
  const m = knobs.workersMin !== undefined ? Number(knobs.workersMin) : base.workersMin;
  return m === 'max' ? workersMax : Math.min(m, workersMax);
}

/**
 * The scenario of one point: a new object (a loaded scenario is frozen), its endpoint re-parsed
 * with the knobs set (checked before the sweep: grid.ts; a gpus list brings its engine defaults); no thresholds (SLOs are checked here).
 */
export function pointScenario(base: SweepBase, task: Pick<PointTask, 'workersMax' | 'knobs'>): Scenario {
  const sc = base.scenario;
  const { workersMax, knobs } = task;
  const ep = Object.keys(knobs).length ? endpointSchema.parse(withKnobs(sc.endpoint, knobs, base.engineGiven)) : sc.endpoint;
  return deepFreeze({ ...sc, endpoint: { ...ep, id: sc.endpoint.id, workersMax, workersMin: workersMinAt(base, workersMax, knobs) }, thresholds: [] });
}

const value = (r: Parameters<(typeof METRICS)[string]['value']>[0], metric: string) => METRICS[metric]!.value(r, {});

export async function runPoint(base: SweepBase, task: PointTask): Promise<PointResult> {
  const sc = pointScenario(base, task);
  const slos = base.slos.map((e) => parseThreshold(e) as Threshold);
  let bill: ((nowMs: number) => WorkerBill) | undefined;
  const target = (s: Scenario, seed: number | string): Target => {
    const t = inProcessTarget(s, seed);
    bill = t.watchWorkers(billingRule(s.endpoint));
    return t;
  };
  const r = await runScenario(sc, { seed: task.seed, target, coldStarts: slos.some((t) => t.metric.startsWith('cold_start_')) });
  const requests = Object.values(r.operations).reduce((n, o) => n + o.requests, 0);
  return {
    workersMax: task.workersMax,
    knobs: task.knobs,
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
      jobsFailed: value(r, 'jobs_failed') ?? 0,
      ...balancerFailedOf(r),
      ...(sc.traffic.some((f) => isStreaming(f.client)) ? { ttftP95Ms: value(r, 'ttft_p95_ms') } : {}),
      ...(r.engine ? { engineWaitingShare: r.engine.waitingShareOfRequestTime } : {}),
    },
    bill: bill!(r.elapsedMs),
  };
}

/** The balancer's failures by cause over the run's operations; none (no field) on a queue endpoint. */
const balancerFailedOf = (r: RunResult) => mergeBalancerFailed(Object.values(r.operations));
