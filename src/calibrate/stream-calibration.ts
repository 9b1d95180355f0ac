/**
 * What `loadlab calibrate` fits from a run's streamed answers (RunResult.observed.streams): the
 * batching engine (fit-engine.ts) and the output tokens (fit-output-tokens.ts), as calibrated.yaml's
 * `llm: {engine, outputTokens}`. Absent from a run that streamed nothing (and from older reports).
 */
import type { DurationFit } from './fit-duration.js';
import { fitEngine, type EngineFit } from './fit-engine.js';
import { fitOutputTokens, type OutputTokensFit } from './fit-output-tokens.js';
import type { HealthRow } from './health-rows.js';
import type { ObservedEndpoint } from '../report/run-result.js';
import { streamRows, type StreamRow } from './stream-rows.js';

/** calibration.json's `llm`. */
export interface LlmFit {
  /** Completed streams the run saw, and how many the fit read (a uniform sample when more). */
  streams: number;
  kept: number;
  /** Where each stream's sequences per worker came from: `/health`, the run's own count, or both. */
  batchFrom: 'health' | 'run' | 'both';
  /** Absent: no stream had two gaps between tokens. */
  engine?: EngineFit;
  outputTokens: OutputTokensFit;
}

/** The fit, and the streams behind it (for the charts). */
export interface LlmFitWithCurves {
  llm: LlmFit;
  rows: StreamRow[];
  tokens?: DurationFit;
}

/** Undefined: the run kept no streamed answer. */
export function calibrateStreams(obs: ObservedEndpoint, health: readonly HealthRow[]): LlmFitWithCurves | undefined {
  const s = streamRows(obs, health);
  if (s.rows.length === 0) return undefined;
  const batchFrom = s.fromHealth === s.rows.length ? 'health' : s.fromHealth === 0 ? 'run' : 'both';
  // Mostly from /health: the few streams it did not cover do not make the batch an estimate.
  const engine = fitEngine(s.rows, s.fromHealth >= 0.9 * s.rows.length);
  const tokens = fitOutputTokens(s.rows, s.count);
  return {
    llm: { streams: s.count, kept: s.rows.length, batchFrom, ...(engine ? { engine } : {}), outputTokens: tokens.fit },
    rows: s.rows,
    ...(tokens.curve ? { tokens: tokens.curve } : {}),
  };
}
