/**
 * Fewer points for long runs: a chart shows at most MAX_POINTS points, each the group of
 * `per` consecutive windows (a 30-day run has 259 200 timeline windows of 10 s: groups of 130).
 * Counts become a mean rate or a sum over the group, maxima the group's maximum; `pointNote`
 * says which, for the chart's subtitle.
 */
export const MAX_POINTS = 2000;

export interface Grouping {
  /** Windows per point. */
  per: number;
  windowMs: number;
  /** Windows in all. */
  windows: number;
  /** Points. */
  points: number;
}

/** Spans a point may cover: round times, so points start on whole minutes, hours, days. */
const NICE_SPANS_MS = [10, 15, 20, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10_800, 21_600, 43_200, 86_400].map((s) => s * 1000);

/** The fewest windows per point (a round span when one fits) that keep at most `max` points. */
export function grouping(windows: number, windowMs: number, max = MAX_POINTS): Grouping {
  const least = Math.max(1, Math.ceil(windows / max));
  const nice = NICE_SPANS_MS.find((s) => s % windowMs === 0 && s / windowMs >= least);
  const per = nice === undefined ? least : nice / windowMs;
  return { per, windowMs, windows, points: Math.ceil(windows / per) };
}

/** Each point's start, in seconds of the run. */
export function pointXs(g: Grouping): number[] {
  return Array.from({ length: g.points }, (_, i) => (i * g.per * g.windowMs) / 1000);
}

/** Rounded to 3 decimals (keeps report.html small; finer than any chart shows). */
export const round3 = (v: number): number => Math.round(v * 1000) / 1000;

function each<T>(ys: readonly number[], g: Grouping, f: (from: number, to: number) => T): T[] {
  const out: T[] = [];
  for (let i = 0; i < g.points; i++) out.push(f(i * g.per, Math.min((i + 1) * g.per, ys.length)));
  return out;
}

/** Per-window counts → the mean rate per second over each point's windows. */
export function ratePerSec(ys: readonly number[], g: Grouping): number[] {
  return each(ys, g, (a, b) => {
    let sum = 0;
    for (let k = a; k < b; k++) sum += ys[k]!;
    return b > a ? round3((sum * 1000) / ((b - a) * g.windowMs)) : 0;
  });
}

/** Per-window counts → their sum over each point's windows. */
export function sumPerPoint(ys: readonly number[], g: Grouping): number[] {
  return each(ys, g, (a, b) => {
    let sum = 0;
    for (let k = a; k < b; k++) sum += ys[k]!;
    return sum;
  });
}

/** Per-window maxima (negative: not observed) → each point's maximum; null when none observed. */
export function maxPerPoint(ys: readonly number[], g: Grouping): (number | null)[] {
  return each(ys, g, (a, b) => {
    let m: number | null = null;
    for (let k = a; k < b; k++) if (ys[k]! >= 0 && (m === null || ys[k]! > m)) m = ys[k]!;
    return m;
  });
}

/** Per-window averages (negative: no sample) → each point's mean; null when no window had one. */
export function meanPerPoint(ys: readonly number[], g: Grouping): (number | null)[] {
  return each(ys, g, (a, b) => {
    let sum = 0;
    let n = 0;
    for (let k = a; k < b; k++)
      if (ys[k]! >= 0) {
        sum += ys[k]!;
        n++;
      }
    return n ? round3(sum / n) : null;
  });
}

/** 10 000 → "10 s", 300 000 → "5 min", 5 400 000 → "1 h 30 min". */
export function duration(ms: number): string {
  const parts: string[] = [];
  let rest = ms;
  for (const [unit, size] of [
    ['d', 86_400_000],
    ['h', 3_600_000],
    ['min', 60_000],
  ] as const) {
    if (rest >= size) {
      parts.push(`${Math.floor(rest / size)} ${unit}`);
      rest %= size;
    }
  }
  if (rest || !parts.length) parts.push(`${rest / 1000} s`);
  return parts.join(' ');
}

/** The span one point covers. */
export const pointSpan = (g: Grouping): string => duration(g.per * g.windowMs);

/**
 * How a point was made, for a subtitle: `per 10 s window` or `each point: the mean of 5 windows
 * of 10 s (50 s)`.
 */
export function pointNote(g: Grouping, how: 'mean' | 'sum' | 'max' | 'merged'): string {
  if (g.per === 1) return `per ${duration(g.windowMs)} window`;
  const what = how === 'merged' ? 'histograms merged' : how;
  return `each point ${pointSpan(g)}: ${what} of ${g.per} windows of ${duration(g.windowMs)}`;
}
