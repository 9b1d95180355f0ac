/** A per-window count column cut to a run's `n` windows. */

/** `a` as `n` windows: padded with 0, anything past the last added into it (an event at the very end). */
export function fold(a: readonly number[], n: number): number[] {
  const out = a.slice(0, n);
  while (out.length < n) out.push(0);
  for (let i = n; i < a.length; i++) out[n - 1]! += a[i]!;
  return out;
}
