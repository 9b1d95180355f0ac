/** The x where `cdf` reaches p (bisection; `hi` a sample above most of the mass): the fitted column of calibration.md's percentile tables. */
export function inverse(cdf: (x: number) => number, p: number, hi: number): number {
  let lo = 0;
  let top = Math.max(1, hi);
  while (cdf(top) < p && top < 1e12) top *= 2;
  for (let i = 0; i < 60; i++) {
    const m = (lo + top) / 2;
    if (cdf(m) < p) lo = m;
    else top = m;
  }
  return top;
}
