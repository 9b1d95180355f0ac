/**
 * The open-loop send pump of the bench's reference ceilings (undici-ceiling.ts,
 * socket-ceiling.ts): arrival `i` is due `i × gapMs` after `t0` (a `performance.now()` reading).
 * Each pass sends every arrival that is due; a pass that sent nothing waits on the clock
 * (busy-wait.ts, at most 50 µs), then the loop yields (`setImmediate`) so answers are read: a
 * spin that holds sends to sub-ms at the cost of a core. Resolves once all `n` arrivals are sent.
 */
import { busyWaitUntil } from './busy-wait.js';

export function pumpOpen(n: number, gapMs: number, t0: number, send: (i: number) => void): Promise<void> {
  let sent = 0;
  return new Promise<void>((resolve) => {
    const pump = (): void => {
      const now = performance.now() - t0;
      let did = false;
      while (sent < n && sent * gapMs <= now) {
        send(sent++);
        did = true;
      }
      if (sent >= n) return resolve();
      if (!did && busyWaitUntil(t0, Math.min(sent * gapMs, now + 0.05)) >= sent * gapMs) send(sent++);
      setImmediate(pump);
    };
    pump();
  });
}
