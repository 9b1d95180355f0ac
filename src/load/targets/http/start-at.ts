/**
 * `--start-at`: the wall instant (epoch ms) that becomes the run's time 0, so shards started on
 * several machines send on one timeline. The wait sleeps in slices of at most SLICE_MS, asking
 * `stop()` between them (Ctrl-C ends it); the system clock (`Date.now()`, NTP-synchronised) says
 * when the instant has come, the monotonic clock keeps the run's time from there.
 */

/** Longest sleep between two looks at the clock and at stop() (ms). */
const SLICE_MS = 250;

/**
 * Waits until `Date.now()` reaches `startAtMs` (or `stop()` says so), then returns the
 * `performance.now()` reading of that instant: a wake-up that came late, or an instant already
 * past, moves time 0 back to the instant itself, and arrivals due meanwhile are sent late (and
 * counted late) rather than the timeline shifted.
 */
export async function zeroAt(startAtMs: number, stop: () => boolean, now: () => number = Date.now): Promise<number> {
  for (let left = startAtMs - now(); left > 0 && !stop(); left = startAtMs - now()) {
    await new Promise((resolve) => setTimeout(resolve, Math.min(left, SLICE_MS)));
  }
  if (stop()) return performance.now();
  return performance.now() - (now() - startAtMs);
}
