/**
 * The resolution of the stream times (TTFT, ITL, TPOT): hundredths of a ms. A token every ~6 ms
 * (an H100) makes whole ms a ~15 % step, so these histograms hold ms × 100 and say so (`scale` on
 * an EncodedHistogram, `timeScale` on a flow's stream windows). Reports written before hold whole
 * ms and say nothing: a missing scale is 1. Output tokens/s per request stays whole tokens/s.
 */
import { addScaled, decodeWindow, newHistogram, type Histogram } from './histogram.js';
import type { StreamSeries, StreamWindows } from './run-result.js';

/** Values per ms of the stream time histograms a run records (0.01 ms resolution). */
export const STREAM_TIME_SCALE = 100;

/** The time series among a flow's stream histograms (`tokensPerS` is a rate). */
export const isStreamTime = (series: StreamSeries): boolean => series !== 'tokensPerS';

/** Values per ms of `series` in a flow's stream windows: its `timeScale` for the times, else 1. */
export function windowScale(w: StreamWindows, series: StreamSeries): number {
  return isStreamTime(series) ? (w.timeScale ?? 1) : 1;
}

/**
 * The windows [from, to) of `series` of every flow in `ws`, added into one histogram at the
 * finest scale among them (values ms × `scale`); undefined: no sample in them.
 */
export function streamWindowSpan(ws: readonly StreamWindows[], series: StreamSeries, from: number, to: number): { h: Histogram; scale: number } | undefined {
  const scale = Math.max(1, ...ws.map((w) => windowScale(w, series)));
  let h: Histogram | undefined;
  for (const w of ws) {
    const own = windowScale(w, series);
    for (const e of w[series].slice(from, to)) {
      if (!e) continue;
      h ??= newHistogram(scale);
      addScaled(h, scale, decodeWindow(e), own);
    }
  }
  return h && { h, scale };
}
