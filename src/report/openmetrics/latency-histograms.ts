/**
 * Latency over time: classic histograms (DURATION_BUCKETS_S, serve's buckets) cumulative per
 * window, for response time per operation (`windows.responseMs`) and the job times per flow
 * (`windows.flows`), so `histogram_quantile(0.95, sum by (le) (rate(…_bucket[1m])))` and
 * heatmaps work on a backfilled run. Counts come from the HDR histograms: a value within their
 * 0.1 % resolution of a bound may count on either side of it. A report without per-window
 * histograms (version 1, blast) gives response time for the whole run: 0 at the start, every
 * sample at the end.
 */
import { CLIENT_METRIC } from '../../contract/metric-names.js';
import type { JobSeries } from '../run-result.js';
import type { HistogramSeries } from './om-emitter.js';
import { per, type OmContext } from './om-context.js';
import { WindowGrid } from './window-grid.js';

const FLOW_HISTOGRAMS: readonly (readonly [JobSeries, string, string])[] = [
  ['turnaroundMs', CLIENT_METRIC.turnaroundSeconds, "A job's intended submission to its terminal status read"],
  ['queueDelayMs', CLIENT_METRIC.queueDelaySeconds, "delayTime of terminal status bodies read by the flow's clients"],
  ['executionMs', CLIENT_METRIC.executionSeconds, "executionTime of terminal status bodies read by the flow's clients"],
  ['coldStartMs', CLIENT_METRIC.coldStartSeconds, 'Wait for a starting worker, 0 when a ready worker took the job (in-process only)'],
];

export function latencyHistograms({ r, e, tl, win }: OmContext): void {
  const w = r.windows;
  const respHelp = 'Intended send to answer, so waits before sending count';
  if (win && w) {
    e.histogram(
      CLIENT_METRIC.responseSeconds,
      `${respHelp} (${per(win)})`,
      Object.entries(w.responseMs).map(([op, encs]): HistogramSeries => [e.labels(['operation', op]), encs, win]),
    );
    for (const [key, name, help] of FLOW_HISTOGRAMS) {
      e.histogram(
        name,
        `${help} (${per(win)})`,
        Object.entries(w.flows).flatMap(([flow, fw]): HistogramSeries[] => (fw[key] ? [[e.labels(['flow', flow]), fw[key], win]] : [])),
      );
    }
    return;
  }
  const whole = new WindowGrid(tl.endMs, 1, tl.endMs);
  e.histogram(
    CLIENT_METRIC.responseSeconds,
    `${respHelp} (start and end of the run)`,
    Object.entries(r.operations).map(([op, o]): HistogramSeries => [e.labels(['operation', op]), [o.responseMs.hdr], whole]),
  );
}
