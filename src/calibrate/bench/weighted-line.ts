/**
 * Weighted least squares of y = a + b·x. Calibrate weighs each point by 1/y² so that every
 * concurrency level counts by its relative error, not by its size in ms.
 */
export interface Line {
  a: number;
  b: number;
}

/** The fit; with fewer than two distinct x (or no spread), b = 0 and a = the weighted mean of y. */
export function weightedLine(xs: readonly number[], ys: readonly number[], ws: readonly number[]): Line {
  let sw = 0;
  let sx = 0;
  let sy = 0;
  for (let i = 0; i < xs.length; i++) {
    sw += ws[i]!;
    sx += ws[i]! * xs[i]!;
    sy += ws[i]! * ys[i]!;
  }
  const mx = sx / sw;
  const my = sy / sw;
  let sxx = 0;
  let sxy = 0;
  for (let i = 0; i < xs.length; i++) {
    const dx = xs[i]! - mx;
    sxx += ws[i]! * dx * dx;
    sxy += ws[i]! * dx * (ys[i]! - my);
  }
  if (!(sxx > 1e-12 * Math.max(1, mx * mx) * sw)) return { a: my, b: 0 };
  const b = sxy / sxx;
  return { a: my - b * mx, b };
}

/** The fit with b ≥ 0 (a slope that cannot be negative: time grows with the batch and the prompt). */
export function weightedLineNonNegative(xs: readonly number[], ys: readonly number[], ws: readonly number[]): Line {
  const l = weightedLine(xs, ys, ws);
  return l.b >= 0
    ? l
    : weightedLine(
        xs.map(() => 0),
        ys,
        ws,
      );
}
