/**
 * metrics.om: a RunResult as OpenMetrics text with a timestamp on every sample, for
 * `promtool tsdb create-blocks-from openmetrics` and the Grafana dashboard "loadlab — run". The
 * run's ms `t` (virtual in-process and in lockstep, wall for HTTP targets) is written at the
 * instant `startMs + t`. A pure function of the RunResult and the start instant: the same
 * report.json and start give the same bytes, and a metrics.om can be rebuilt from any report.json
 * (merged shards included).
 *
 * Families and labels are CLIENT_METRIC's contract (src/contract/metric-names.ts), with serve's
 * names (METRIC) where the meaning is the same, so one dashboard reads both. Resolution follows
 * what the RunResult holds; nothing is interpolated (README "metrics.om" has the table):
 * - per window of the timeline (10 s): the timeline's counters and the probes' queue maxima
 *   (openmetrics/timeline-families.ts);
 * - per window of the per-window histograms (`windows.windowMs`: 10 s, 1 min for a day):
 *   requests, answers by status and in-flight maxima per operation, the endpoint's gauges, an LLM
 *   endpoint's engines, and latency as classic histograms (operation-, endpoint-, engine-families.ts,
 *   latency-histograms.ts);
 *   streamed answers per streaming flow (stream-families.ts);
 * - constants at the start and every window end: run info, start and end instants, limits
 *   (run-families.ts);
 * - the whole run only: retries, sessions, worker-seconds, summaries (whole-run-families.ts).
 * Every series carries `endpoint` and `scenario`: backfilled data has no scrape target to tell
 * runs apart. No URL or key is written.
 */
import { DURATION_BUCKETS_S } from '../contract/metric-names.js';
import { endpointFamilies } from './openmetrics/endpoint-families.js';
import { engineFamilies } from './openmetrics/engine-families.js';
import { latencyHistograms } from './openmetrics/latency-histograms.js';
import type { OmContext } from './openmetrics/om-context.js';
import { OmEmitter } from './openmetrics/om-emitter.js';
import { operationFamilies } from './openmetrics/operation-families.js';
import { runFamilies } from './openmetrics/run-families.js';
import { streamFamilies } from './openmetrics/stream-families.js';
import { timelineFamilies } from './openmetrics/timeline-families.js';
import { wholeRunFamilies } from './openmetrics/whole-run-families.js';
import { WindowBucketCounter } from './openmetrics/window-buckets.js';
import { WindowGrid } from './openmetrics/window-grid.js';
import { canonicalNumber, OpenMetricsWriter } from './openmetrics-text.js';
import type { RunResult } from './run-result.js';

export function renderOpenMetrics(r: RunResult, startMs: number): string {
  const w = new OpenMetricsWriter();
  emit(r, startMs, w);
  return w.text();
}

/**
 * The same text, handed to `sink` in pieces as it is made (then `# EOF`): a 30-day run has
 * 259 200 windows and millions of samples, more than one string may hold.
 */
export function writeOpenMetrics(r: RunResult, startMs: number, sink: (text: string) => void): void {
  const w = new OpenMetricsWriter(sink);
  emit(r, startMs, w);
  w.end();
}

function emit(r: RunResult, startMs: number, w: OpenMetricsWriter): void {
  const tlW = r.timeline.windowMs;
  const tl = new WindowGrid(tlW, r.timeline.requests.length, r.elapsedMs);
  const hw = r.windows?.windowMs;
  const win = hw === undefined ? undefined : new WindowGrid(hw, Math.max(1, Math.ceil(r.elapsedMs / hw)), r.elapsedMs);
  const buckets = new WindowBucketCounter(DURATION_BUCKETS_S.map((s) => s * 1000));
  const e = new OmEmitter(
    w,
    startMs,
    [
      ['endpoint', r.scenario.endpointId],
      ['scenario', r.scenario.name],
    ],
    buckets,
    DURATION_BUCKETS_S.map(canonicalNumber),
  );
  const c: OmContext = { r, e, startMs, tl, win, steady: win ?? tl };
  runFamilies(c);
  operationFamilies(c);
  timelineFamilies(c);
  endpointFamilies(c);
  engineFamilies(c);
  latencyHistograms(c);
  streamFamilies(c);
  wholeRunFamilies(c);
}
