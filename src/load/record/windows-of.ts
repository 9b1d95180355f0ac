/** The per-window histograms and columns (RunResult.windows) a Recorder holds, as of now. */
import type { Windows } from '../../report/run-result.js';
import type { Recorder } from './recorder.js';
import { fold } from './fold-windows.js';

/**
 * Windows 0 to `n - 1` (see Windows). A request sent at the very end counts in the last window,
 * so each operation's `requests` add up to its total. `endMs`: the run ended then, and the
 * result has `responses`, `inFlightMax` and (when the recorder has a view of it) `endpoint`;
 * undefined: a snapshot mid-run (thresholds), without them.
 */
export function windowsOf(rec: Recorder, n: number, flows: Iterable<string>, endMs?: number): Windows {
  const responseMs: Record<string, string[]> = {};
  const requests: Record<string, number[]> = {};
  for (const name of [...rec.ops.keys()].sort()) {
    const o = rec.ops.get(name)!;
    responseMs[name] = o.windows.result(n);
    requests[name] = fold(o.sentPerWindow, n);
  }
  const out: Windows = { windowMs: rec.histWindowMs, responseMs, flows: rec.jobTimes.windowsOf(flows, n), requests };
  const streams = rec.streamMetrics.windowsOf(n);
  if (endMs === undefined) return streams ? { ...out, streams } : out;
  const endpoint = rec.endpointWatcher?.windows(endMs, n) ?? rec.health.windows(n);
  if (endpoint) out.endpoint = endpoint;
  const responses: Record<string, Record<string, number[]>> = {};
  const inFlightMax: Record<string, number[]> = {};
  for (const name of Object.keys(requests)) {
    const o = rec.ops.get(name)!;
    responses[name] = o.statusWindows.result(n);
    inFlightMax[name] = o.inFlightWindows.result(n);
  }
  return { ...out, responses, inFlightMax, ...(streams ? { streams } : {}) };
}
