/**
 * Wall-time alignment of shards. Each input's time 0 (epoch ms: `shard.startAtMs`, else
 * `wallClock.startedAt`) is rounded to the nearest whole window on a grid of `windowMs` counted
 * from the Unix epoch; an input's windows move right by the number of grid windows its time 0
 * lies after the earliest one. Shards started together with `--start-at` share one time 0 and
 * move by 0. Rounding on a fixed grid (not relative to the other inputs) gives every input the
 * same shift whatever else is merged, which keeps the merge associative: the grid index of a
 * merged result's time 0 (the earliest of its inputs') is the least of theirs.
 */
import type { CheckedInput } from './merge-input.js';

/** Per input: how many windows of `windowMs` its series move right. */
export function windowShifts(inputs: readonly CheckedInput[], windowMs: number): number[] {
  const grid = inputs.map((x) => Math.round(x.time0Ms / windowMs));
  const first = Math.min(...grid);
  return grid.map((g) => g - first);
}

/** How many windows the merged series hold: the furthest shifted end of any input's. */
export function mergedLength(lengths: readonly number[], shifts: readonly number[]): number {
  return Math.max(1, ...lengths.map((n, i) => n + shifts[i]!));
}

/** Input i's value at merged window w, `fill` outside its series. */
export function at<T>(series: readonly T[] | undefined, shift: number, w: number, fill: T): T {
  const k = w - shift;
  return series && k >= 0 && k < series.length ? series[k]! : fill;
}
