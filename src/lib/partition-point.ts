/**
 * Binary search over a partitioned range: the first index in [0, n) where `before(i)` is false,
 * `before` being true up to some index and false after it (n when it is true everywhere). Over a
 * sorted array, `partitionPoint(a.length, (i) => a[i] <= x)` counts the elements ≤ x.
 */
export function partitionPoint(n: number, before: (i: number) => boolean): number {
  let lo = 0;
  let hi = n;
  while (lo < hi) {
    const m = (lo + hi) >> 1;
    if (before(m)) lo = m + 1;
    else hi = m;
  }
  return lo;
}
