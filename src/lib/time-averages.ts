/**
 * Time averages of piecewise-constant series (a queue length, workers by state) per window of a
 * clock, integrated exactly: each value counts for the time it held, split at window boundaries.
 * The owner sets `value` after each change and calls `advance(t)` before the next one, with the
 * time of that change (time only moves forward).
 */
export class TimeAverages {
  /** The series' values from the last `advance` on (set them after advancing). */
  readonly value: Float64Array;
  /** Per series: value × ms per window (index = floor(t / windowMs)), grown on demand. */
  private readonly area: number[][];
  private t: number;

  constructor(
    readonly windowMs: number,
    series: number,
    startMs = 0,
  ) {
    this.value = new Float64Array(series);
    this.area = Array.from({ length: series }, () => []);
    this.t = startMs;
  }

  /** The values held from the previous advance until `toMs`. */
  advance(toMs: number): void {
    let t = this.t;
    if (!(toMs > t)) return;
    const w = this.windowMs;
    const value = this.value;
    let i = Math.floor(t / w);
    while (t < toMs) {
      const end = Math.min(toMs, (i + 1) * w);
      const d = end - t;
      for (let k = 0; k < value.length; k++) {
        const v = value[k]!;
        if (v === 0) continue;
        const a = this.area[k]!;
        while (a.length <= i) a.push(0);
        a[i]! += v * d;
      }
      t = end;
      i++;
    }
    this.t = toMs;
  }

  /** Per series, windows 0 to `n - 1`: value × ms held in each, the run having ended at `endMs`. */
  areas(endMs: number, n: number): number[][] {
    this.advance(endMs);
    return this.area.map((a) => Array.from({ length: n }, (_, i) => a[i] ?? 0));
  }

  /** `averagesOf` this one's areas (see there). */
  averages(endMs: number, n: number): number[][] {
    return averagesOf(this.areas(endMs, n), this.windowMs, endMs, n);
  }
}

/**
 * Per series, windows 0 to `n - 1` of `windowMs` (a multiple of the areas' window, `areaWindowMs`):
 * the average over the part of each window before `endMs` (the last window may be cut short; a
 * window wholly after `endMs` is 0), rounded to 3 decimals.
 */
export function averagesOf(areas: readonly (readonly number[])[], windowMs: number, endMs: number, n: number, areaWindowMs = windowMs): number[][] {
  const m = windowMs / areaWindowMs;
  if (!Number.isInteger(m) || m < 1) throw new RangeError(`window ${windowMs} ms is not a multiple of ${areaWindowMs} ms`);
  return areas.map((a) => {
    const out = new Array<number>(n);
    for (let i = 0; i < n; i++) {
      let area = 0;
      for (let k = i * m; k < (i + 1) * m; k++) area += a[k] ?? 0;
      const covered = Math.min(endMs, (i + 1) * windowMs) - i * windowMs;
      out[i] = covered > 0 ? round3(area / covered) : 0;
    }
    return out;
  });
}

export function round3(x: number): number {
  return Math.round(x * 1000) / 1000;
}
