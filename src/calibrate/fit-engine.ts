/**
 * The batching engine (`llm.engine`) from streamed answers. An iteration lasts
 * `decodeMs + perSequenceMs × (n − 1) + prefillMsPerToken × p` and gives each of its n sequences
 * one token, so:
 *
 * - A stream's median gap between tokens is one iteration of its batch (a join's prefill lengthens
 *   one iteration, which the median passes over): regressed on n − 1 (sequences per worker, less
 *   one), its intercept is `decodeMs` and its slope `perSequenceMs`.
 * - Its first token comes `overheadMs` after the job starts, plus the wait for the iteration under
 *   way to end (half an iteration on average when others were decoding, none when alone), plus
 *   its own prefill iteration (an iteration of its batch and `prefillMsPerToken` per prompt token).
 *   What is left of its TTFT once the iterations are taken off, regressed on its prompt tokens,
 *   gives `overheadMs` (intercept) and `prefillMsPerToken` (slope). Streams that may have waited
 *   in the queue (`/health` showed one between their send and first token) are left out.
 *
 * Each figure has its standard error; it is trusted when that is within 10 % of it, or when over
 * the range the run covered it moves an iteration (or a TTFT) by less than 2 %.
 */
import { robustLinearFit } from './linear-fit.js';
import { hasGaps, type StreamRow } from './stream-rows.js';

/** Fewer streams than this: the engine's figures are given, and marked not to be trusted. */
export const MIN_STREAMS = 20;
/** Prompts must span at least this many tokens for the prompt's share of the TTFT to be split off. */
export const MIN_PROMPT_SPREAD = 16;

/** One fitted figure of the engine (ms, or ms per token for prefillMsPerToken). */
export interface EngineFigure {
  value: number;
  /** Standard error of the estimate (same unit); absent: not estimable. */
  se?: number;
  trusted: boolean;
  note?: string;
}

export interface EngineFit {
  decodeMs: EngineFigure;
  perSequenceMs: EngineFigure;
  prefillMsPerToken: EngineFigure;
  overheadMs: EngineFigure;
  /** Streams behind the ITL fit, and the sequences per worker they streamed at. */
  itl: { streams: number; dropped: number; perWorkerMin: number; perWorkerMax: number };
  /** Streams left out of both fits: their chunks arrived in one piece (stream-rows.ts BUNCHED_GAP_MS). */
  bunched: number;
  /** Streams behind the TTFT fit (not queued), and their prompt tokens. */
  ttft: { streams: number; dropped: number; promptMin: number; promptMax: number };
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

function fitTtft(rows: readonly StreamRow[], decode: number, perSeq: number): Pick<EngineFit, 'prefillMsPerToken' | 'overheadMs' | 'ttft'> {
  const noHealth = rows.every((r) => r.queued === undefined);
  const clear = ttftRows(rows);
  const y = clear.map((r) => ttftLessIterations(r, decode, perSeq));
  const f = robustLinearFit(
    clear.map((r) => r.promptTokens),
    y,
  );
  const none: EngineFigure = {
    value: 0,
    trusted: false,
    note: 'no stream reached its first token without jobs queued: run below the endpoint’s capacity for a while',
  };
  if (f === undefined) return { prefillMsPerToken: none, overheadMs: none, ttft: { streams: 0, dropped: 0, promptMin: 0, promptMax: 0 } };
  const ttft = { streams: f.n, dropped: f.dropped, promptMin: f.xMin, promptMax: f.xMax };
  const few = f.n < MIN_STREAMS ? `${f.n} streams reached their first token with nothing queued, fewer than ${MIN_STREAMS}` : undefined;
  const queue = noHealth ? 'no /health answers: queueing and cold starts could not be left out (run with --health-every)' : undefined;
  const typical = Math.max(1, median(clear.map((r) => r.firstMs)));
  if (f.xMax - f.xMin < MIN_PROMPT_SPREAD) {
    const mean = y.reduce((a, b) => a + b, 0) / y.length;
    const one = `prompts of ${fmt(f.xMin)} to ${fmt(f.xMax)} tokens: the prompt's share of the TTFT cannot be told from the fixed part, so overheadMs carries both (right for prompts of this length); send prompts of several lengths (flows with different prompts)`;
    return {
      prefillMsPerToken: { value: 0, trusted: false, note: one },
      overheadMs: figure(Math.max(0, mean), f.interceptSe, false, [few, queue, one]),
      ttft,
    };
  }
  const prefill = Math.max(0, f.slope);
  return {
    prefillMsPerToken: figure(prefill, f.slopeSe, f.slopeSe * f.xMax <= 0.02 * typical, [
      few,
      queue,
      f.slope < 0 ? `the fitted slope was below 0 (${fmt(f.slope)}): 0` : undefined,
    ]),
    overheadMs: figure(Math.max(0, f.intercept), f.interceptSe, f.interceptSe <= 0.02 * typical, [
      few,
      queue,
      f.intercept < 0 ? `the fitted fixed part was below 0 (${fmt(f.intercept)} ms): 0` : undefined,
    ]),
    ttft,
  };
}

/**
 * The streams whose first token tells the engine: with /health read, those its answers show reached
 * it with nothing queued (the first ones, before its first answer, may have met a cold start);
 * without, every one. Never one whose chunks came in one piece.
 */
export function ttftRows(rows: readonly StreamRow[]): StreamRow[] {
  const noHealth = rows.every((r) => r.queued === undefined);
  return rows.filter((r) => (noHealth || r.queued === false) && !r.bunched);
}

/**
 * A stream's TTFT less its iterations (ms): its own prefill iteration (its median gap, else the
 * fitted one at its batch) and the wait for the boundary of the one under way (half an iteration
 * when others were decoding, shading to none as its batch nears one sequence).
 */
export function ttftLessIterations(r: StreamRow, decode: number, perSeq: number): number {
  const iter = hasGaps(r) ? r.itlMs : decode + perSeq * Math.max(0, r.perWorker - 1);
  const busy = Math.min(1, Math.max(0, r.perWorker - 1));
  return r.firstMs - iter * (1 + busy / 2);
}

/** A figure, trusted when its error is within 10 % of it or `small` says it hardly matters, and nothing in `why` speaks against it. */
function figure(value: number, se: number | undefined, small: boolean, why: (string | undefined)[]): EngineFigure {
  const reasons = why.filter((w): w is string => w !== undefined);
  const precise = se !== undefined && Number.isFinite(se) && (se <= 0.1 * Math.abs(value) || small);
  const trusted = precise && reasons.length === 0;
  const imprecise = precise ? [] : [se !== undefined && Number.isFinite(se) ? `± ${fmt(se)}: not precise enough (over 10 %)` : 'its error cannot be estimated'];
  const notes = [...imprecise, ...reasons];
  return {
    value: round4(value),
    ...(se !== undefined && Number.isFinite(se) ? { se: round4(se) } : {}),
    trusted,
    ...(notes.length ? { note: notes.join('; ') } : {}),
  };
}

function median(xs: number[]): number {
  if (xs.length === 0) return 0;
  const s = xs.slice().sort((a, b) => a - b);
  return s[s.length >> 1]!;
}

const round4 = (x: number): number => Math.round(x * 1e4) / 1e4;
const fmt = (x: number): string => String(Math.round(x * 1000) / 1000);
