/**
 * One fitted figure of the batching engine (fit-engine.ts, fit-ttft.ts): its value, its standard
 * error, whether to trust it, and why not.
 */

/** A figure in ms (or ms per token for prefillMsPerToken). */
export interface EngineFigure {
  value: number;
  /** Standard error of the estimate (same unit, 2 significant digits); absent: not estimable. */
  se?: number;
  trusted: boolean;
  note?: string;
}

/**
 * A figure, trusted when its error is within 10 % of it (or `small` says the error hardly matters
 * over the range the run covered) and nothing in `why` speaks against it.
 */
export function figure(value: number, se: number | undefined, small: boolean, why: (string | undefined)[]): EngineFigure {
  const reasons = why.filter((w): w is string => w !== undefined);
  const known = se !== undefined && Number.isFinite(se);
  const precise = known && (se <= 0.1 * Math.abs(value) || small);
  const imprecise = precise ? [] : [known ? `± ${fmt(se)}: not precise enough (over 10 %)` : 'its error cannot be estimated'];
  const notes = [...imprecise, ...reasons];
  return {
    value: Math.round(value * 1e4) / 1e4,
    ...(known ? { se: Number(se.toPrecision(2)) } : {}),
    trusted: precise && reasons.length === 0,
    ...(notes.length ? { note: notes.join('; ') } : {}),
  };
}

/** A number for a note: 3 decimals at most. */
export const fmt = (x: number): string => String(Math.round(x * 1000) / 1000);
