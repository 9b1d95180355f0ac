/**
 * `llm.outputTokens` from the token counts of streamed answers (usage.completion_tokens, else
 * content chunks), with the duration models (fit-duration.ts: constant, lognormal, empirical; the
 * values are tokens). A count at its request's max_tokens was cut there: the answer would have
 * been longer, so when many were cut the fit says the endpoint's own lengths are longer.
 */
import { fitDuration, type DurationFit } from './fit-duration.js';
import { type FittedDuration, fittedFields } from './fitted-duration.js';
import { MIN_STREAMS } from './fit-engine.js';
import type { StreamRow } from './stream-rows.js';

/** A share of counts cut at max_tokens above this: the fit is a lower bound of the endpoint's own lengths. */
export const CAPPED_SHARE = 0.1;

/** calibration.json's `llm.outputTokens`: a FittedDuration whose values are tokens, not ms. */
export interface OutputTokensFit extends FittedDuration {
  /** Counts equal to their request's max_tokens. */
  capped: number;
}

/** The fit, and the distribution behind it (charts); `count`: completed streams seen in all. */
export function fitOutputTokens(rows: readonly StreamRow[], count: number): { fit: OutputTokensFit; curve?: DurationFit } {
  const tokens = rows.map((r) => r.tokens).filter((t) => t >= 1);
  const capped = rows.filter((r) => r.maxTokens > 0 && r.tokens >= r.maxTokens).length;
  const f = fitDuration(tokens);
  if (f === undefined) return { fit: { model: 'none', samples: count, capped, trusted: false, note: 'no stream carried a token' } };
  const notes = [
    f.samples < MIN_STREAMS ? `${f.samples} streams, fewer than ${MIN_STREAMS}: a longer run gives more` : undefined,
    capped > CAPPED_SHARE * rows.length
      ? `${capped} of ${rows.length} answers stopped at their request's max_tokens: the endpoint's own lengths are longer (a lower bound; send a higher maxTokens to measure them)`
      : undefined,
  ].filter((n): n is string => n !== undefined);
  return {
    fit: {
      ...fittedFields(f, count),
      capped,
      trusted: notes.length === 0,
      ...(notes.length ? { note: notes.join('; ') } : {}),
    },
    curve: f,
  };
}
