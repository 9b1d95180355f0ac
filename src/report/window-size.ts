/**
 * The window of the per-window histograms (RunResult.windows): 10 s — the recording window —
 * unless the run is long, then the first of a few coarser multiples that keeps the count at most
 * MAX_HISTOGRAM_WINDOWS, so report.json stays bounded (a 24 h run: 1 min windows). It depends
 * only on the scenario's `durationMs + drainMs`, so a scenario's `every` thresholds are checked
 * against it at load.
 */
export const RECORD_WINDOW_MS = 10_000;
export const MAX_HISTOGRAM_WINDOWS = 2000;
const STEPS_MS = [10_000, 30_000, 60_000, 300_000, 600_000, 1_800_000, 3_600_000, 21_600_000, 86_400_000];

/** Histogram window (ms) of a run of at most `maxRunMs` (traffic + drain). */
export function histogramWindowMs(maxRunMs: number): number {
  for (const w of STEPS_MS) if (Math.ceil(maxRunMs / w) <= MAX_HISTOGRAM_WINDOWS) return w;
  return STEPS_MS[STEPS_MS.length - 1]!;
}
