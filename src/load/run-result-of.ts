/**
 * A finished run's RunResult, from what its recorder holds: the sections in their stored order,
 * the workers' bill, and the thresholds judged (again from the actual send when arrivals were
 * late). Wall-clock facts are the caller's (`wallClock`).
 */
import { RUN_RESULT_VERSION, type RunResult } from '../report/run-result.js';
import { evaluateThresholds } from '../report/thresholds.js';
import { judgeFromSend } from '../report/from-send.js';
import { METRICS } from '../report/threshold-metrics.js';
import type { PricesUsed } from '../report/prices.js';
import type { WorkerBillSeen } from '../report/workers-section.js';
import { billingRule } from '../report/worker-bill.js';
import { workersSection } from '../report/workers-section.js';
import type { RandomSource } from '../lib/random.js';
import type { BehaviourEnv } from './behaviours/types.js';
import type { Client } from './client.js';
import { headroom } from './record/headroom.js';
import type { Recorder } from './record/recorder.js';
import type { SendRates } from './record/send-rate.js';
import { windowsOf } from './record/windows-of.js';
import { thresholdSpec, type Scenario } from './scenario/schema.js';
import type { Target } from './targets/target.js';
import { engineSummaryOf } from '../report/engine-summary.js';

/** What a run records into and sends through (runScenario's parts). */
export interface RunParts {
  readonly seed: number | string;
  readonly target: Target;
  readonly rec: Recorder;
  readonly rates: SendRates;
  readonly client: Client;
  /** Client-side randomness, apart from the simulator's streams. */
  readonly rand: RandomSource;
  readonly webhooks: BehaviourEnv['webhooks'];
  /** The workers' bill, for a target that sees them. */
  readonly bill: ((nowMs: number) => WorkerBillSeen) | undefined;
}

/** The sections of what watched the run (RunWatch): each absent when there is nothing to say. */
export interface WatchSections {
  unreachable?: RunResult['unreachable'];
  healthSampling?: RunResult['healthSampling'];
  aborted?: RunResult['aborted'];
}

export interface RunEnd {
  elapsedMs: number;
  interrupted: boolean;
  file?: string;
  shard?: { index: number; count: number; startAtMs?: number };
  prices?: PricesUsed;
}

export function resultOfRun(sc: Scenario, { seed, target, rec, rates, bill }: RunParts, watched: WatchSections, end: RunEnd): RunResult {
  const { elapsedMs } = end;
  const sec = rec.sections();
  // Over HTTP, what the receiver turned away (a request without its token, a body that is no delivery).
  const refusals = target.webhookRefusals?.();
  if (refusals) sec.webhooks = { ...sec.webhooks, ...refusals };
  for (const f of Object.values(sec.flows)) {
    const ended = Object.values(f.outcomes).reduce((a, b) => a + b, 0);
    if (f.sessions > ended) f.outcomes = { ...f.outcomes, unfinished: f.sessions - ended };
  }
  const windowCount = Math.max(1, Math.ceil(elapsedMs / rec.histWindowMs));
  // The order of the keys is the order of report.json's sections.
  const result: RunResult = {
    version: RUN_RESULT_VERSION,
    kind: 'run',
    scenario: { name: sc.name, seed, durationMs: sc.durationMs, endpointId: sc.endpoint.id, ...(end.file ? { file: end.file } : {}) },
    target: {
      kind: target.kind,
      ...(target.reportUrl !== undefined ? { url: target.reportUrl } : {}),
      causes: target.causesReported ? 'reported' : 'inferred',
    },
    ...(end.shard ? { shard: shardSection(end.shard) } : {}),
    elapsedMs,
    ...sec,
    headroom: headroom(rec, rates, sc.endpoint),
    timeline: rec.tl.result(elapsedMs),
    thresholds: [],
    ...(watched.unreachable ? { unreachable: watched.unreachable } : {}),
    windows: windowsOf(rec, windowCount, Object.keys(sec.flows), elapsedMs),
    ...(watched.healthSampling ? { healthSampling: watched.healthSampling } : {}),
    ...(watched.aborted ? { aborted: watched.aborted } : {}),
    ...(end.interrupted ? { interrupted: { atMs: elapsedMs } } : {}),
    ...(rec.observations ? { observed: rec.observations.result() } : {}),
  };
  if (bill) {
    const completed = METRICS.jobs_completed!.value(result, {}) ?? 0;
    result.workers = workersSection(bill(elapsedMs), sc.endpoint.workersMin, elapsedMs, completed, end.prices, billingRule(sc.endpoint).initializing);
  }
  const engine = engineSummaryOf(result.windows!.endpoint, rec.histWindowMs, elapsedMs);
  if (engine) result.engine = engine;
  result.thresholds = evaluateThresholds(
    result,
    sc.thresholds.map((t) => thresholdSpec(t).expr),
  );
  // Late arrivals: each threshold over times from the intended send is judged again from the actual send (verdict.ts).
  if (rec.sendTimes && result.arrivals.late > 0) result.thresholds = judgeFromSend(result.thresholds, rec.sendTimes.view(result, rec.ops, windowCount));
  return result;
}

function shardSection(s: NonNullable<RunEnd['shard']>): NonNullable<RunResult['shard']> {
  return { count: s.count, indices: [s.index], ...(s.startAtMs !== undefined ? { startAtMs: s.startAtMs } : {}) };
}
