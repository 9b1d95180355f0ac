/**
 * Two runs on one time axis: both are grouped into points of the same span (the coarser run's
 * window times `per`, at most MAX_POINTS points for the longer run), and the shorter run's series
 * ends in gaps (null) where it had already finished.
 */
import { MAX_POINTS, type Grouping } from '../html/downsample.js';

export interface Overlay {
  a: Grouping;
  b: Grouping;
  /** Each point's start in seconds of the run; as many as the longer run's points. */
  x: number[];
  /** One point's span in ms. */
  spanMs: number;
}

export interface WindowSeries {
  windowMs: number;
  /** Windows the run has. */
  windows: number;
}

/** undefined when the window lengths are not multiples of one another (no common point span). */
export function overlay(a: WindowSeries, b: WindowSeries, max = MAX_POINTS): Overlay | undefined {
  const coarse = Math.max(a.windowMs, b.windowMs);
  if (coarse % a.windowMs || coarse % b.windowMs) return undefined;
  const longest = Math.max(a.windows * a.windowMs, b.windows * b.windowMs);
  const per = Math.max(1, Math.ceil(longest / coarse / max));
  const spanMs = per * coarse;
  const of = (s: WindowSeries): Grouping => {
    const p = spanMs / s.windowMs;
    return { per: p, windowMs: s.windowMs, windows: s.windows, points: Math.ceil(s.windows / p) };
  };
  const [ga, gb] = [of(a), of(b)];
  const points = Math.max(ga.points, gb.points);
  return { a: ga, b: gb, spanMs, x: Array.from({ length: points }, (_, i) => (i * spanMs) / 1000) };
}

/** `values` with null appended up to `n` points. */
export function padTo(values: readonly (number | null)[], n: number): (number | null)[] {
  return values.length >= n ? [...values] : [...values, ...Array<null>(n - values.length).fill(null)];
}
