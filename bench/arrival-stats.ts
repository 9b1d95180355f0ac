/**
 * What the arrival server saw of one tool at one rate (generator-vs-peers.ts). The even schedule
 * starts at the first arrival: the k-th arrival (k from 0) is due `k / rate` after it, and its
 * lateness is how much later it came (negative: early, as a tool that overshoots the rate is).
 */
export interface ArrivalStats {
  /** Arrivals / (rate × seconds). */
  servedRatio: number;
  lateP50Ms: number;
  lateP99Ms: number;
  lateMaxMs: number;
  /** Coefficient of variation of the arrivals per 100 ms bucket (whole buckets of the run). */
  cv100ms: number;
  /** Of the arrivals late by the p99 or more, the share that came in the run's first second. */
  tailInFirstSecond: number;
}

function quantile(sorted: Float64Array, q: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))]!;
}

export function arrivalStats(times: Float64Array, ratePerSec: number, seconds: number): ArrivalStats {
  const n = times.length;
  const intended = ratePerSec * seconds;
  if (n === 0) return { servedRatio: 0, lateP50Ms: NaN, lateP99Ms: NaN, lateMaxMs: NaN, cv100ms: NaN, tailInFirstSecond: NaN };
  const t0 = times[0]!;
  const perMs = ratePerSec / 1000;
  const late = new Float64Array(n);
  for (let k = 0; k < n; k++) late[k] = times[k]! - t0 - k / perMs;
  const sorted = late.slice().sort();
  const p99 = quantile(sorted, 0.99);
  let tail = 0;
  let tailEarly = 0;
  for (let k = 0; k < n; k++) {
    if (late[k]! < p99) continue;
    tail++;
    if (times[k]! - t0 < 1000) tailEarly++;
  }
  const buckets = new Float64Array(Math.max(1, Math.floor(seconds * 10)));
  for (let k = 0; k < n; k++) {
    const b = Math.floor((times[k]! - t0) / 100);
    if (b < buckets.length) buckets[b]!++;
  }
  let sum = 0;
  for (const c of buckets) sum += c;
  const mean = sum / buckets.length;
  let sq = 0;
  for (const c of buckets) sq += (c - mean) ** 2;
  return {
    servedRatio: n / intended,
    lateP50Ms: quantile(sorted, 0.5),
    lateP99Ms: p99,
    lateMaxMs: sorted[n - 1]!,
    cv100ms: mean > 0 ? Math.sqrt(sq / buckets.length) / mean : NaN,
    tailInFirstSecond: tail ? tailEarly / tail : NaN,
  };
}
