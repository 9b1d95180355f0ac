/**
 * The batching engine (`llm.engine`) from streamed answers. An iteration lasts
 * `decodeMs + perSequenceMs × (n − 1) + prefillMsPerToken × p` and gives each of its n sequences
 * one token, so a stream's median gap between tokens is one iteration of its batch (a join's
 * prefill lengthens one iteration, which the median passes over): regressed on n − 1 (sequences
 * per worker, less one), its intercept is `decodeMs` and its slope `perSequenceMs`. The first
 * tokens give `overheadMs` and `prefillMsPerToken` (fit-ttft.ts).
 *
 * Each figure has its standard error; it is trusted when that is within 10 % of it, or when over
 * the range the run covered it moves an iteration (or a TTFT) by less than 2 %.
 */
import { type EngineFigure, figure, fmt } from './engine-figure.js';
import { fitTtft, type TtftFit } from './fit-ttft.js';
import { robustLinearFit } from './linear-fit.js';
import { hasGaps, type StreamRow } from './stream-rows.js';

/** Fewer streams than this: the engine's figures are given, and marked not to be trusted. */
export const MIN_STREAMS = 20;

export type { EngineFigure };

export interface EngineFit {
  decodeMs: EngineFigure;
  perSequenceMs: EngineFigure;
  prefillMsPerToken: EngineFigure;
  overheadMs: EngineFigure;
  /** Streams behind the ITL fit, and the sequences per worker they streamed at. */
  itl: { streams: number; dropped: number; perWorkerMin: number; perWorkerMax: number };
  /** Streams left out of both fits: their chunks arrived in one piece (stream-rows.ts BUNCHED_GAP_MS). */
  bunched: number;
  ttft: TtftFit['ttft'];
}

const STEP_HINT = 'a closed flow whose users step up (arrival {process: closed, users, rampUpMs}), with /health read (--health-every)';

/** Undefined: no stream had two gaps or more. */
export function fitEngine(rows: readonly StreamRow[], batchFromHealth: boolean): EngineFit | undefined {
  const gaps = rows.filter(hasGaps);
  const itl = robustLinearFit(
    gaps.map((r) => r.perWorker - 1),
    gaps.map((r) => r.itlMs),
  );
  if (itl === undefined) return undefined;
  const decode = Math.max(0.001, itl.intercept);
  const perSeq = Math.max(0, itl.slope);
  const few = itl.n < MIN_STREAMS ? `${itl.n} streams, fewer than ${MIN_STREAMS}: a longer run gives more` : undefined;
  const estimate = batchFromHealth
    ? undefined
    : 'sequences per worker estimated from the run’s own streams in flight, not from /health (run with --health-every)';
  const spread = itl.xMax - itl.xMin;
  const decodeMs = figure(decode, itl.interceptSe, spread > 0 ? itl.interceptSe <= 0.02 * decode : false, [
    few,
    estimate,
    itl.xMin > 0.5 ? `no stream ran alone (${fmt(itl.xMin + 1)} sequences per worker or more): extrapolated; start with one stream in flight` : undefined,
  ]);
  const perSequenceMs = figure(perSeq, spread > 0 ? itl.slopeSe : undefined, itl.slopeSe * spread <= 0.02 * decode, [
    few,
    estimate,
    spread < 1 ? `sequences per worker ranged only from ${fmt(itl.xMin + 1)} to ${fmt(itl.xMax + 1)}: run several concurrency levels, ${STEP_HINT}` : undefined,
    itl.slope < 0 ? `the fitted slope was below 0 (${fmt(itl.slope)}): 0` : undefined,
  ]);
  return {
    decodeMs,
    perSequenceMs,
    ...fitTtft(rows, decode, perSeq),
    itl: { streams: itl.n, dropped: itl.dropped, perWorkerMin: itl.xMin + 1, perWorkerMax: itl.xMax + 1 },
    bunched: rows.filter((r) => r.bunched).length,
  };
}
