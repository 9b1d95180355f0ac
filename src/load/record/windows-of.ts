/** The per-window histograms (RunResult.windows) a Recorder holds, as of now. */
import type { Windows } from '../../report/run-result.js';
import type { Recorder } from './recorder.js';

/** Per-window histograms of windows 0 to `n - 1` (see Windows). */
export function windowsOf(rec: Recorder, n: number, flows: Iterable<string>): Windows {
  const responseMs: Record<string, string[]> = {};
  for (const name of [...rec.ops.keys()].sort()) responseMs[name] = rec.ops.get(name)!.windows.result(n);
  return { windowMs: rec.histWindowMs, responseMs, flows: rec.jobTimes.windowsOf(flows, n) };
}
