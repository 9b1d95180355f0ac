/**
 * Ordinary least squares of y on one x, with the standard errors of both coefficients: how far
 * the fit of a batching endpoint (fit-engine.ts) can trust a slope read off a few concurrency
 * levels. Points whose x or y is not finite are left out.
 */

export interface LinearFit {
  intercept: number;
  slope: number;
  /** Standard errors of the intercept and the slope (same units as they); Infinity: not estimable. */
  interceptSe: number;
  slopeSe: number;
  /** Points used. */
  n: number;
  /** Smallest and largest x used. */
  xMin: number;
  xMax: number;
  /** Root mean square of the residuals (y's unit). */
  rms: number;
}

/** Undefined: no point. With one x value (or one point) the slope is 0 and its error Infinity. */
export function linearFit(xs: readonly number[], ys: readonly number[]): LinearFit | undefined {
  const px: number[] = [];
  const py: number[] = [];
  for (let i = 0; i < Math.min(xs.length, ys.length); i++) {
    if (Number.isFinite(xs[i]) && Number.isFinite(ys[i])) {
      px.push(xs[i]!);
      py.push(ys[i]!);
    }
  }
  const n = px.length;
  if (n === 0) return undefined;
  const mx = px.reduce((a, b) => a + b, 0) / n;
  const my = py.reduce((a, b) => a + b, 0) / n;
  let sxx = 0;
  let sxy = 0;
  for (let i = 0; i < n; i++) {
    sxx += (px[i]! - mx) ** 2;
    sxy += (px[i]! - mx) * (py[i]! - my);
  }
  // x spread below 1e-9 of its unit: one x, nothing to read a slope from.
  const slope = sxx > 1e-9 ? sxy / sxx : 0;
  const intercept = my - slope * mx;
  let sse = 0;
  for (let i = 0; i < n; i++) sse += (py[i]! - intercept - slope * px[i]!) ** 2;
  const s2 = n > 2 ? sse / (n - 2) : Infinity;
  const slopeSe = sxx > 1e-9 ? Math.sqrt(s2 / sxx) : Infinity;
  const interceptSe = sxx > 1e-9 ? Math.sqrt(s2 * (1 / n + (mx * mx) / sxx)) : Math.sqrt(s2 / n);
  let xMin = px[0]!;
  let xMax = px[0]!;
  for (const x of px) {
    if (x < xMin) xMin = x;
    if (x > xMax) xMax = x;
  }
  return { intercept, slope, interceptSe, slopeSe, n, xMin, xMax, rms: Math.sqrt(sse / n) };
}

/**
 * `linearFit` once more without the points further from the first line than 4 robust standard
 * deviations (1.4826 × the median absolute residual), and than 5 % of the median |y|: a stream
 * stalled by a pause of the client, or a first token that waited for a cold worker, does not tilt
 * the line. The 5 % floor keeps the points when most lie exactly on it (a simulator's: the median
 * residual 0 would call every other point an outlier). `dropped`: points left out.
 */
export function robustLinearFit(xs: readonly number[], ys: readonly number[]): (LinearFit & { dropped: number }) | undefined {
  const first = linearFit(xs, ys);
  if (first === undefined || first.n < 5) return first && { ...first, dropped: 0 };
  const res = xs.map((x, i) => Math.abs(ys[i]! - first.intercept - first.slope * x));
  const sorted = res.filter(Number.isFinite).sort((a, b) => a - b);
  const ay = ys
    .filter(Number.isFinite)
    .map(Math.abs)
    .sort((a, b) => a - b);
  const limit = Math.max(4 * 1.4826 * sorted[sorted.length >> 1]!, 0.05 * ay[ay.length >> 1]!);
  if (!(limit > 0)) return { ...first, dropped: 0 };
  const keep = res.map((r) => r <= limit);
  const again = linearFit(
    xs.filter((_, i) => keep[i]),
    ys.filter((_, i) => keep[i]),
  );
  return again && { ...again, dropped: first.n - again.n };
}
