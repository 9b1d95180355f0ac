/**
 * `loadlab calibrate`'s fit of an endpoint from one run against it (RunResult.observed): job
 * times from `executionTime`, cold starts from the first jobs of workers started for them, the
 * idle timeout from when workers stopped after their last job, and the most workers seen at once.
 * Each quantity says how far to trust it and what run would gather more of it.
 */
import type { ObservedEndpoint, RunResult } from '../report/run-result.js';
import { balancerSamples } from './balancer-samples.js';
import { coldStartSamples } from './cold-starts.js';
import { fitDuration, type DurationFit } from './fit-duration.js';
import { type FittedDuration, fittedFields } from './fitted-duration.js';
import { healthRows } from './health-rows.js';
import { fitIdleTimeout } from './idle-timeout.js';
import { calibrateStreams, type LlmFit, type LlmFitWithCurves } from './stream-calibration.js';
import { fitWorkerConcurrency, type WorkerConcurrencyFit } from './worker-concurrency.js';

export type { FittedDuration };

export const CALIBRATION_VERSION = 1;
/** Fewer samples than this: a fit is given, and marked not to be trusted. */
export const MIN_SAMPLES = 20;
/** Fewer matched stops than this: the idle timeout is marked not to be trusted. */
export const MIN_STOPS = 3;

export interface Calibration {
  version: number;
  run: { scenario: string; seed: number | string; target: string | undefined; elapsedMs: number; startedAt?: string };
  jobDurationMs: FittedDuration;
  coldStartMs: FittedDuration;
  idleTimeoutMs: { value?: number; matched: number; predicted: number; stopsSeen: number; resolutionMs?: number; trusted: boolean; note?: string };
  workersMax: { value?: number; reached: boolean; note?: string };
  /** Jobs one worker holds at once, from /health (worker-concurrency.ts); absent in older calibrations. */
  workerConcurrency?: WorkerConcurrencyFit;
  /** The batching engine and output tokens, from streamed answers (stream-calibration.ts); absent: the run streamed none. */
  llm?: LlmFit;
  /** A load-balancing endpoint's run (observed.balancer): what its fit read. Absent: a queue endpoint. */
  balancer?: BalancerFit;
  /** `/health` answers kept, and workers seen in status bodies (of a load-balancing endpoint: named by its answers). */
  inputs: { healthRows: number; workers: number; executionTimes: number };
}

/** What calibrate read of a load-balancing endpoint, and the scaler calibrated.yaml gets. */
export interface BalancerFit {
  /** Requests workers served (`count` of observed.balancer), and `http` ones kept and timed as jobs. */
  requests: number;
  httpRequests: number;
  jobTimes: number;
  /** RunPod's load-balancing endpoints scale by requests in flight per worker; not measured (calibrated-scenario.ts). */
  scaler: { type: 'REQUEST_COUNT'; note: string };
}

/** The fit, and the CDFs and samples behind it (for the charts). */
export interface CalibrationWithCurves {
  calibration: Calibration;
  curves: { name: 'jobDurationMs' | 'coldStartMs'; samples: number[]; fit: DurationFit }[];
  /** The streams behind `llm` (charts); absent: none. */
  streams?: LlmFitWithCurves;
}

export function calibrate(r: RunResult & { observed: ObservedEndpoint }): CalibrationWithCurves {
  const obs = r.observed;
  const rows = healthRows(obs.health);
  const curves: CalibrationWithCurves['curves'] = [];

  const wc = fitWorkerConcurrency(rows);
  const lb = obs.balancer ? balancerSamples({ ...obs, balancer: obs.balancer }, rows, wc.value) : undefined;
  const execSamples = lb ? lb.jobMs : obs.executionMs.samples;
  const exec = fitDuration(execSamples);
  if (exec) curves.push({ name: 'jobDurationMs', samples: execSamples, fit: exec });
  const jobDurationMs = fitted(exec, lb ? lb.jobMs.length : obs.executionMs.count, 'a longer run, or more traffic, gives more job times');
  if (lb) jobDurationMs.note = join(jobDurationMs.note, balancerJobNote(lb.jobMs.length, lb.httpKept, wc.value));

  const cold = lb ? { samplesMs: lb.coldStartMs, workersSeen: lb.workersSeen, fromHealth: lb.fromHealth } : coldStartSamples(obs, rows);
  const coldFit = fitDuration(cold.samplesMs);
  if (coldFit) curves.push({ name: 'coldStartMs', samples: cold.samplesMs, fit: coldFit });
  const shape = 'quiet gaps longer than the idle timeout, each ended by a single job (scenarios/calibrate-probe.yaml)';
  const coldStartMs = fitted(coldFit, cold.samplesMs.length, `cold starts come from ${shape}`);
  const picked = lb
    ? `each worker's first request less the median time of a request that did not wait; ${
        cold.fromHealth
          ? `the first requests of ${cold.samplesMs.length} of the ${cold.workersSeen} workers named found no ready or starting worker and none waiting`
          : "no /health answers: every worker's first request counts, waiting behind busy workers included"
      }`
    : cold.fromHealth
      ? `the first jobs of ${cold.samplesMs.length} of the ${cold.workersSeen} workers seen found no ready or starting worker and nothing queued`
      : "no /health answers: every worker's first job counts, queueing and the scaler's delay included (run with --health-every)";
  coldStartMs.note = join(coldStartMs.note, picked);

  const idle = fitIdleTimeout(obs, rows);
  const idleTrusted = idle.idleTimeoutMs !== undefined && idle.matched >= MIN_STOPS && (idle.resolutionMs ?? 0) <= idle.idleTimeoutMs / 2;
  const tailHint = 'end the run with a tail without arrivals longer than the idle timeout, with /health read often (--health-every)';
  const idleNote =
    idle.idleTimeoutMs === undefined
      ? `no worker was seen to stop after its last job: ${tailHint}`
      : idle.matched < MIN_STOPS
        ? `only ${idle.matched} stop(s) matched: ${tailHint}`
        : !idleTrusted
          ? `/health was read every ~${idle.resolutionMs} ms, too coarse for this timeout: read it more often (--health-every)`
          : undefined;

  const streams = calibrateStreams(obs, rows);
  if (streams && !exec)
    jobDurationMs.note = lb
      ? 'no http request: the requests streamed, and llm gives their times'
      : 'no status body read: the jobs streamed, and llm gives their times';

  let most: number | undefined;
  let reached = false;
  for (const row of rows) if (most === undefined || row.workers > most) most = row.workers;
  for (const row of rows) if (row.workers === most && row.inQueue > 0) reached = true;

  return {
    calibration: {
      version: CALIBRATION_VERSION,
      run: {
        scenario: r.scenario.name,
        seed: r.scenario.seed,
        target: r.target.url,
        elapsedMs: r.elapsedMs,
        ...(r.wallClock?.startedAt ? { startedAt: r.wallClock.startedAt } : {}),
      },
      jobDurationMs,
      coldStartMs,
      idleTimeoutMs: {
        ...(idle.idleTimeoutMs !== undefined ? { value: idle.idleTimeoutMs } : {}),
        matched: idle.matched,
        predicted: idle.predicted,
        stopsSeen: idle.stopsSeen,
        ...(idle.resolutionMs !== undefined ? { resolutionMs: idle.resolutionMs } : {}),
        trusted: idleTrusted,
        ...(idleNote ? { note: idleNote } : {}),
      },
      workersMax: {
        ...(most !== undefined ? { value: most } : {}),
        reached,
        ...(most === undefined
          ? { note: "no /health answers: the scenario's workersMax stays" }
          : reached
            ? {}
            : { note: 'the queue never waited at this many workers: the endpoint may allow more (plan sweeps workersMax anyway)' }),
      },
      workerConcurrency: wc,
      ...(streams ? { llm: streams.llm } : {}),
      ...(lb && obs.balancer
        ? {
            balancer: {
              requests: obs.balancer.count,
              httpRequests: lb.httpKept,
              jobTimes: lb.jobMs.length,
              scaler: {
                type: 'REQUEST_COUNT' as const,
                note: "not measured: a load-balancing endpoint scales by requests in flight per worker; calibrated.yaml keeps the scenario's scaler, else gets value workerConcurrency (a worker more when those there are full)",
              },
            },
          }
        : {}),
      inputs: { healthRows: obs.health.rows.length, workers: obs.workers.rows.length, executionTimes: obs.executionMs.count },
    },
    curves,
    ...(streams ? { streams } : {}),
  };
}

/** How a load-balancing endpoint's job times were picked. */
function balancerJobNote(kept: number, http: number, concurrency: number | undefined): string {
  const which =
    concurrency === undefined
      ? "every one but a worker's first: no /health answers, so requests that waited for a worker are in (run with --health-every if the endpoint answers it)"
      : `those that were not their worker's first and were sent with no more of the run's requests in flight than the workers surely ready could take (${concurrency} each)`;
  return `${kept} of ${http} http requests timed end to end by the client (the worker's time and the way there and back): ${which}`;
}

const join = (a: string | undefined, b: string): string => (a ? `${a}; ${b}` : b);

function fitted(fit: DurationFit | undefined, count: number, more: string): FittedDuration {
  if (!fit) return { model: 'none', samples: 0, trusted: false, note: `no samples: ${more}` };
  const trusted = fit.samples >= MIN_SAMPLES;
  return {
    ...fittedFields(fit, count),
    trusted,
    ...(trusted ? {} : { note: `${fit.samples} samples, fewer than ${MIN_SAMPLES}: ${more}` }),
  };
}
