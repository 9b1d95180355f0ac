/**
 * The open-loop send pump of the bench's reference ceilings (undici-ceiling.ts,
 * socket-ceiling.ts): arrival `i` is due `i × gapMs` after `t0` (a `performance.now()` reading).
 * Each pass sends every arrival that is due; a pass that sent nothing waits on the clock as the
 * HTTP target does (busy counting, a clock read every ~4-12 µs since every read allocates, at
 * most 50 µs), then the loop yields (`setImmediate`) so answers are read. Resolves once all `n`
 * arrivals are sent.
 */
export function pumpOpen(n: number, gapMs: number, t0: number, send: (i: number) => void): Promise<void> {
  let sent = 0;
  let sink = 0;
  let chunk = 256;
  return new Promise<void>((resolve) => {
    const pump = (): void => {
      let now = performance.now() - t0;
      let did = false;
      while (sent < n && sent * gapMs <= now) {
        send(sent++);
        did = true;
      }
      if (sent >= n) return resolve();
      if (!did) {
        const until = Math.min(sent * gapMs, now + 0.05);
        while (now < until) {
          for (let i = chunk; i > 0; i--) sink = (sink * 31 + i) | 0;
          const t1 = performance.now() - t0;
          if (t1 - now > 0.012) chunk = Math.max(chunk >> 1, 16);
          else if (t1 - now < 0.004) chunk = Math.min(chunk << 1, 1 << 16);
          now = t1;
        }
        if (sent * gapMs <= now) send(sent++);
      }
      setImmediate(pump);
    };
    pump();
  });
}
