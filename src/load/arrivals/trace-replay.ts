/**
 * A token trace replayed (`replay` with a `format`): each row of its window is an arrival at its
 * time on the trace's clock (ms from the window's start, divided by `speed`), carrying the row's
 * prompt and answer length (`request()`). Rows are read from the file as the run pulls arrivals
 * (trace/trace-rows.ts): the trace is never held in memory, whatever its length. A loop reads the
 * window again, each one `loopPeriodMs` after the one before.
 */
import { TraceRows } from '../trace/trace-rows.js';
import { countBefore, loopPeriodMs, scanTrace, type TraceReplay } from '../trace/trace-scan.js';
import type { TraceRow } from '../trace/trace-row.js';
import type { ArrivalGenerator } from './types.js';

export function traceArrivals(r: TraceReplay, loop: boolean): ArrivalGenerator {
  let rows = new TraceRows(r);
  let offset = 0;
  let period: number | undefined;
  // The first pass's rows, first and last time: one loop's period (loopPeriodMs).
  const seen = { rows: 0, firstMs: 0, lastMs: 0 };
  let cur: TraceRow | undefined;
  return {
    next: () => {
      for (;;) {
        cur = rows.next();
        if (cur !== undefined) {
          const t = cur.atMs / r.speed;
          if (period === undefined) {
            if (seen.rows++ === 0) seen.firstMs = t;
            seen.lastMs = t;
          }
          return offset + t;
        }
        // A loop must move time forward (the loader refuses a shorter one; this is the backstop).
        period ??= loopPeriodMs(r, seen);
        if (!loop || seen.rows === 0 || !(period >= 1)) return undefined;
        offset += period;
        rows = new TraceRows(r);
      }
    },
    request: () => cur,
  };
}

/** Expected arrivals in [0, durationMs). */
export function traceExpected(r: TraceReplay, loop: boolean, durationMs: number): number {
  if (!loop) return countBefore(r, durationMs);
  const s = scanTrace(r);
  const period = loopPeriodMs(r, s);
  if (s.rows === 0 || !(period >= 1)) return countBefore(r, durationMs);
  return Math.floor(durationMs / period) * s.rows + countBefore(r, durationMs % period);
}

/** Most arrivals in one second (a loop's seam aside). */
export function tracePeakPerSec(r: TraceReplay): number {
  return scanTrace(r).peakPerSec;
}
