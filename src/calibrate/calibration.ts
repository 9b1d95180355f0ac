/**
 * `loadlab calibrate`'s fit of an endpoint from one run against it (RunResult.observed): job
 * times from `executionTime`, cold starts from the first jobs of workers started for them, the
 * idle timeout from when workers stopped after their last job, and the most workers seen at once.
 * Each quantity says how far to trust it and what run would gather more of it.
 */
import type { ObservedEndpoint, RunResult } from '../report/run-result.js';
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
  /** `/health` answers kept, and workers seen in status bodies. */
  inputs: { healthRows: number; workers: number; executionTimes: number };
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

  const exec = fitDuration(obs.executionMs.samples);
  if (exec) curves.push({ name: 'jobDurationMs', samples: obs.executionMs.samples, fit: exec });
  const jobDurationMs = fitted(exec, obs.executionMs.count, 'a longer run, or more traffic, gives more job times');

  const cold = coldStartSamples(obs, rows);
  const coldFit = fitDuration(cold.samplesMs);
  if (coldFit) curves.push({ name: 'coldStartMs', samples: cold.samplesMs, fit: coldFit });
  const shape = 'quiet gaps longer than the idle timeout, each ended by a single job (scenarios/calibrate-probe.yaml)';
  const coldStartMs = fitted(coldFit, cold.samplesMs.length, `cold starts come from ${shape}`);
  const picked = cold.fromHealth
    ? `the first jobs of ${cold.samplesMs.length} of the ${cold.workersSeen} workers seen found no ready or starting worker and nothing queued`
    : "no /health answers: every worker's first job counts, queueing and the scaler's delay included (run with --health-every)";
  coldStartMs.note = coldStartMs.note ? `${coldStartMs.note}; ${picked}` : picked;

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
  if (streams && !exec) jobDurationMs.note = 'no status body read: the jobs streamed, and llm gives their times';

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
      workerConcurrency: fitWorkerConcurrency(rows),
      ...(streams ? { llm: streams.llm } : {}),
      inputs: { healthRows: obs.health.rows.length, workers: obs.workers.rows.length, executionTimes: obs.executionMs.count },
    },
    curves,
    ...(streams ? { streams } : {}),
  };
}

function fitted(fit: DurationFit | undefined, count: number, more: string): FittedDuration {
  if (!fit) return { model: 'none', samples: 0, trusted: false, note: `no samples: ${more}` };
  const trusted = fit.samples >= MIN_SAMPLES;
  return {
    ...fittedFields(fit, count),
    trusted,
    ...(trusted ? {} : { note: `${fit.samples} samples, fewer than ${MIN_SAMPLES}: ${more}` }),
  };
}
