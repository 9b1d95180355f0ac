/**
 * Waiting on the clock without sleeping or allocating, for the reference open loops of
 * `runner-http` (open-pump.ts), which hold sends to sub-ms. Every read of a clock allocates a
 * heap number (~16 B, whichever clock), so the wait counts between reads, keeping each stretch
 * of counting at ~4-12 µs whatever the machine's speed.
 */

/** Iterations of counting between two clock reads (adapted as the wait goes). */
let chunk = 256;
let sink = 0;

/**
 * Waits until `performance.now() - t0` reaches `untilMs` (ms); returns the last reading on that
 * scale (≥ `untilMs`, or the first reading if it was already past it).
 */
export function busyWaitUntil(t0: number, untilMs: number): number {
  let t = performance.now() - t0;
  while (t < untilMs) {
    let x = sink;
    for (let i = chunk; i > 0; i--) x = (x * 31 + i) | 0;
    sink = x;
    const t1 = performance.now() - t0;
    if (t1 - t > 0.012) chunk = Math.max(chunk >> 1, 16);
    else if (t1 - t < 0.004) chunk = Math.min(chunk << 1, 1 << 16);
    t = t1;
  }
  return t;
}
