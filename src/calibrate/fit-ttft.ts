/**
 * `overheadMs` and `prefillMsPerToken` from first tokens. A stream's first token comes
 * `overheadMs` after its job starts, plus the wait for the iteration under way to end, plus its own
 * prefill iteration: `decodeMs + perSequenceMs × (n − 1) + prefillMsPerToken × prompt tokens`. What
 * is left of its TTFT once the iterations are taken off, regressed on its prompt tokens, gives
 * `overheadMs` (intercept) and `prefillMsPerToken` (slope).
 *
 * The wait is the uncertain part. A stream that joins an idle engine (alone on its worker) waits
 * none, so those streams are used when there are enough of them, at two prompt lengths or more.
 * Otherwise every stream counts with half an iteration of wait when others were decoding; a closed
 * loop's requests, sent as the last answer ends (at an iteration's end), arrive in step with the
 * iterations and wait less, so overheadMs is then marked not to be trusted. Streams that may have
 * waited in the queue (`/health` showed one between their send and first token) are left out.
 */
import { type EngineFigure, figure, fmt } from './engine-figure.js';
import { robustLinearFit } from './linear-fit.js';
import { hasGaps, type StreamRow } from './stream-rows.js';

/**
 * Fewer streams than this reached their first token alone: every stream counts, with an assumed
 * wait. Their TTFT has no wait in it, so a few are enough; the fit's standard error says how far
 * to trust them.
 */
export const MIN_ALONE = 6;
/** Prompts must span at least this many tokens for the prompt's share of the TTFT to be split off. */
export const MIN_PROMPT_SPREAD = 16;
/** Fewer streams than this behind the fit: it is given, and marked not to be trusted. */
const MIN_TTFT_STREAMS = 20;

export interface TtftFit {
  prefillMsPerToken: EngineFigure;
  overheadMs: EngineFigure;
  /** Streams behind the fit, whether they were the ones alone on their worker, and their prompt tokens. */
  ttft: { streams: number; dropped: number; alone: boolean; promptMin: number; promptMax: number };
}

/** The streams the fit reads and each one's TTFT less its iterations (ms); `noHealth`: no /health answer covered any stream. */
export function ttftPoints(rows: readonly StreamRow[], decode: number, perSeq: number): { rows: StreamRow[]; y: number[]; alone: boolean; noHealth: boolean } {
  // With /health read, only streams its answers show reached their first token with nothing queued
  // (the first ones, before its first answer, may have met a cold start); never one in one piece.
  const noHealth = rows.every((r) => r.queued === undefined);
  const clear = rows.filter((r) => (noHealth || r.queued === false) && !r.bunched);
  const alone = clear.filter((r) => r.alone);
  const spread = (xs: StreamRow[]): number => xs.reduce((m, r) => Math.max(m, r.promptTokens), 0) - xs.reduce((m, r) => Math.min(m, r.promptTokens), Infinity);
  if (alone.length >= MIN_ALONE && (spread(alone) >= MIN_PROMPT_SPREAD || spread(clear) < MIN_PROMPT_SPREAD)) {
    return { rows: alone, y: alone.map((r) => r.firstMs - decode), alone: true, noHealth };
  }
  const y = clear.map((r) => {
    const iter = hasGaps(r) ? r.itlMs : decode + perSeq * Math.max(0, r.joinPerWorker - 1);
    return r.firstMs - iter * (1 + Math.min(1, Math.max(0, r.joinPerWorker - 1)) / 2);
  });
  return { rows: clear, y, alone: false, noHealth };
}

export function fitTtft(rows: readonly StreamRow[], decode: number, perSeq: number): TtftFit {
  const p = ttftPoints(rows, decode, perSeq);
  const f = robustLinearFit(
    p.rows.map((r) => r.promptTokens),
    p.y,
  );
  if (f === undefined) {
    const none: EngineFigure = {
      value: 0,
      trusted: false,
      note: 'no stream reached its first token without jobs queued: run below the endpoint’s capacity for a while',
    };
    return { prefillMsPerToken: none, overheadMs: none, ttft: { streams: 0, dropped: 0, alone: false, promptMin: 0, promptMax: 0 } };
  }
  const ttft = { streams: f.n, dropped: f.dropped, alone: p.alone, promptMin: f.xMin, promptMax: f.xMax };
  const least = p.alone ? MIN_ALONE : MIN_TTFT_STREAMS;
  const few = f.n < least ? `${f.n} streams reached their first token with nothing queued, fewer than ${least}` : undefined;
  const queue = p.noHealth ? 'no /health answers: queueing and cold starts could not be left out (run with --health-every)' : undefined;
  const wait = p.alone
    ? undefined
    : `fewer than ${MIN_ALONE} streams (of two prompt lengths) reached their first token alone on their worker, so the wait for the iteration under way is taken as half one; requests sent in step with the iterations (a closed loop over a network of steady latency) wait otherwise, so overheadMs may be off by up to an iteration. Start with no more streams in flight than workers for a while`;
  const sorted = p.rows.map((r) => r.firstMs).sort((a, b) => a - b);
  const typical = Math.max(1, sorted[sorted.length >> 1] ?? 1);
  if (f.xMax - f.xMin < MIN_PROMPT_SPREAD) {
    const mean = p.y.reduce((a, b) => a + b, 0) / p.y.length;
    const one = `prompts of ${fmt(f.xMin)} to ${fmt(f.xMax)} tokens: the prompt's share of the TTFT cannot be told from the fixed part, so overheadMs carries both (right for prompts of this length); send prompts of several lengths (flows with different prompts)`;
    return {
      prefillMsPerToken: { value: 0, trusted: false, note: one },
      overheadMs: figure(Math.max(0, mean), f.interceptSe, false, [few, queue, wait, one]),
      ttft,
    };
  }
  return {
    prefillMsPerToken: figure(Math.max(0, f.slope), f.slopeSe, f.slopeSe * f.xMax <= 0.02 * typical, [
      few,
      queue,
      f.slope < 0 ? `the fitted slope was below 0 (${fmt(f.slope)}): 0` : undefined,
    ]),
    overheadMs: figure(Math.max(0, f.intercept), f.interceptSe, f.interceptSe <= 0.02 * typical, [
      few,
      queue,
      wait,
      f.intercept < 0 ? `the fitted fixed part was below 0 (${fmt(f.intercept)} ms): 0` : undefined,
    ]),
    ttft,
  };
}
