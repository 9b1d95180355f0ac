/** A per-window count column cut to a run's `n` windows, and the per-window means of `/health` answers. */
import { round3 } from '../../lib/time-averages.js';

/** `a` as `n` windows: padded with 0, anything past the last added into it (an event at the very end). */
export function fold(a: readonly number[], n: number): number[] {
  const out = a.slice(0, n);
  while (out.length < n) out.push(0);
  for (let i = n; i < a.length; i++) out[n - 1]! += a[i]!;
  return out;
}

/** Per window of `n`, the sum `sums` over the answers read in it (`counts`, already folded to n) as their mean; -1: none read. */
export function meanPerWindow(sums: readonly number[], counts: readonly number[], n: number): number[] {
  return fold(sums, n).map((v, i) => (counts[i] ? round3(v / counts[i]!) : -1));
}

/** A count of a `/health` answer: a finite number, else 0 (missing or malformed). */
export function num(v: unknown): number {
  return typeof v === 'number' && Number.isFinite(v) ? v : 0;
}
