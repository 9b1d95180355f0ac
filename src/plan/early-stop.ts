/**
 * The early-stop rule of a sweep line, in one place for the sweep (sweep.ts, which applies it as
 * points complete) and for the merge of a sharded plan (merge-plans.ts, which applies it to a line
 * whose points all ran): scanning the line's points in workersMax order, once a point and the next
 * two meet every SLO on every seed, no higher point belongs to the plan (unless `exhaustive`).
 */

/** Consecutive points that must meet every SLO before the sweep stops early. */
export const EARLY_STOP_RUN = 3;

/** Where the scan of one line stands. */
export interface StopScan {
  /** Points 0..decided-1 are scanned; `passing` consecutive meeting ones end there. */
  decided: number;
  passing: number;
  /** The index of the point after which the line stops; null: not (yet) stopped. */
  stopPoint: number | null;
}

export const newStopScan = (): StopScan => ({ decided: 0, passing: 0, stopPoint: null });

/** Scans the next point of a line of `nPoints` (it met every SLO on every seed: `meets`). */
export function scanPoint(st: StopScan, meets: boolean, nPoints: number, exhaustive: boolean): void {
  st.passing = meets ? st.passing + 1 : 0;
  st.decided++;
  if (!exhaustive && st.passing >= EARLY_STOP_RUN && st.decided < nPoints) st.stopPoint = st.decided - 1;
}

/** The points of a line that belong to the plan, given whether each (all of them ran) meets every SLO. */
export function stopOfLine(meets: readonly boolean[], exhaustive: boolean): { points: number; stopPoint: number | null } {
  const st = newStopScan();
  while (st.stopPoint === null && st.decided < meets.length) scanPoint(st, meets[st.decided]!, meets.length, exhaustive);
  return { points: st.decided, stopPoint: st.stopPoint };
}
