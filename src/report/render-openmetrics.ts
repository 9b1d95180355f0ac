/**
 * metrics.om (CONTRACT §5): a RunResult as OpenMetrics text with a timestamp on every sample, for
 * `promtool tsdb create-blocks-from openmetrics`. The run's ms `t` (virtual in-process and in
 * lockstep, wall for HTTP targets) is written at the instant `startMs + t`. A pure function of the
 * RunResult and the start instant: the same report.json and start give the same bytes, and a
 * metrics.om can be rebuilt from any report.json (merged shards included).
 *
 * Resolution follows what the RunResult holds; nothing is interpolated:
 * - The timeline's columns are per window (10 s for `run`): counters get a 0 at the start and the
 *   cumulative count at the end of every window (the last one ends with the run); gauges get the
 *   window's maximum at its end, and no sample where nothing was observed.
 * - Figures the report has only for the whole run (per operation and status, per flow, jobs by
 *   status other than COMPLETED, webhook outcomes): counters with two points, 0 at the start and the
 *   total at the end, so `increase()` over the run is right; job delay and execution as histograms
 *   with the buckets of `serve`'s own (same two points; counts from the HDR histograms, so a value
 *   within their 0.1 % resolution of a bucket bound may count on either side of it).
 * - Client latencies have no per-window histograms in the timeline, so they are summaries with
 *   the run's quantiles (quantile 0 = min, 1 = max) at the end only.
 * Names, all from src/contract/metric-names.ts: `serve`'s (METRIC) where the meaning is the same,
 * so one dashboard reads both; CLIENT_METRIC (`loadlab_client_*`) for what only the load client
 * sees (README: "metrics.om").
 * Every series carries `endpoint` and `scenario`: backfilled data has no scrape target to tell runs
 * apart. No URL or key is written.
 */
import { CLIENT_METRIC, DURATION_BUCKETS_S, METRIC } from '../contract/metric-names.js';
import type { EncodedHistogram } from './histogram.js';
import { bucketCounts } from './histogram-buckets.js';
import { canonicalNumber, OpenMetricsWriter, type Labels } from './openmetrics-text.js';
import type { RunResult } from './run-result.js';

/** Points of one series: [run ms, value], in increasing time. */
type Points = (readonly [number, number])[];
type Series = readonly [Labels, Points];

const QUANTILES = [[0, 'min'], [0.5, 'p50'], [0.9, 'p90'], [0.95, 'p95'], [0.99, 'p99'], [0.999, 'p999'], [1, 'max']] as const;

/** `name_total` of a serve counter → the family name. */
const family = (sampleName: string) => sampleName.replace(/_total$/, '');

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
  const tl = r.timeline;
  const n = tl.requests.length;
  const winS = `${tl.windowMs / 1000} s`;
  // Window i covers [i·W, (i+1)·W); its sample is at its end, the last one at the end of the run.
  const windowEnd = (i: number) => Math.min((i + 1) * tl.windowMs, Math.max(r.elapsedMs, i * tl.windowMs + 1));
  const endMs = n ? windowEnd(n - 1) : Math.max(r.elapsedMs, 1);
  const base: Labels = [['endpoint', r.scenario.endpointId], ['scenario', r.scenario.name]];
  const L = (...extra: (readonly [string, string])[]): Labels => [...base, ...extra];

  const perWindow = (col: readonly number[]): Points => {
    const pts: Points = [[0, 0]];
    let sum = 0;
    col.forEach((x, i) => pts.push([windowEnd(i), (sum += x)]));
    return pts;
  };
  const maxima = (col: readonly number[]): Points => col.flatMap((x, i) => (x < 0 ? [] : [[windowEnd(i), x] as const]));
  const whole = (total: number): Points => [[0, 0], [endMs, total]];
  const sumCol = (col: readonly number[]) => col.reduce((a, b) => a + b, 0);

  const counter = (name: string, help: string, series: readonly Series[], unit?: string) => {
    w.family(name, 'counter', help, unit);
    for (const [labels, pts] of series) {
      const id = w.series(`${name}_total`, labels);
      for (const [t, v] of pts) w.sampleOf(id, v, startMs + t);
    }
  };
  const gauge = (name: string, help: string, series: readonly Series[], unit?: string) => {
    if (!series.some(([, pts]) => pts.length)) return;
    w.family(name, 'gauge', help, unit);
    for (const [labels, pts] of series) {
      const id = w.series(name, labels);
      for (const [t, v] of pts) w.sampleOf(id, v, startMs + t);
    }
  };

  w.family(CLIENT_METRIC.run, 'info', 'The run these metrics come from');
  const info = L(['seed', String(r.scenario.seed)], ['kind', r.kind], ['target', r.target.kind], ['causes', r.target.causes]);
  for (const t of [0, endMs]) w.sample(`${CLIENT_METRIC.run}_info`, info, 1, startMs + t);

  // Per window, from the timeline.
  counter(CLIENT_METRIC.requests, `Requests sent by the load client, every attempt (per ${winS} window)`, [[L(), perWindow(tl.requests)]]);
  counter(CLIENT_METRIC.responses2xx, `Answers with a 2xx status (per ${winS} window)`, [[L(), perWindow(tl.responses2xx)]]);
  const causes = [['rate', tl.limitedRate], ['concurrency', tl.limitedConcurrency], ['queue', tl.limitedQueue], ['unknown', tl.limitedUnknown]] as const;
  counter(family(METRIC.requestsLimited), `Answers 429 by the limit hit, as the client saw them; no operation label (per ${winS} window)`,
    causes.filter(([c, col]) => c !== 'unknown' || sumCol(col) > 0).map(([c, col]) => [L(['cause', c]), perWindow(col)]));
  counter(CLIENT_METRIC.timeouts, `Requests the client gave up waiting for (per ${winS} window)`, [[L(), perWindow(tl.clientTimeouts)]]);
  counter(family(METRIC.jobsFinished), `Terminal statuses read by clients: COMPLETED per ${winS} window, other statuses at the start and end of the run`, [
    [L(['status', 'COMPLETED']), perWindow(tl.jobsCompleted)],
    ...Object.entries(r.jobs.finalStatus).filter(([s]) => s !== 'COMPLETED').map(([s, v]): Series => [L(['status', s]), whole(v)]),
  ]);
  counter(CLIENT_METRIC.jobsFailed, `Jobs read FAILED or TIMED_OUT (per ${winS} window)`, [[L(), perWindow(tl.jobsFailed)]]);
  counter(CLIENT_METRIC.expiriesSeen, `404s for jobs known to exist: the result expired before the client read it (per ${winS} window)`, [[L(), perWindow(tl.expiriesSeen)]]);
  counter(CLIENT_METRIC.webhookFailures, `Webhook attempts the receiver failed (per ${winS} window)`, [[L(), perWindow(tl.webhookFailures)]]);
  counter(CLIENT_METRIC.streamChunks, `Partial outputs received from /stream or streamed chat (per ${winS} window)`, [[L(), perWindow(tl.streamChunks)]]);
  counter(CLIENT_METRIC.arrivalsLate, `Arrivals sent later than openModel.lateAfterMs after their intended time (per ${winS} window)`, [[L(), perWindow(tl.late)]]);
  counter(CLIENT_METRIC.arrivalsDropped, `Arrivals never sent: held by the in-flight cap longer than openModel.maxWaitMs (per ${winS} window)`, [[L(), perWindow(tl.dropped)]]);
  gauge(CLIENT_METRIC.queueJobsMax, `Deepest queue a probe saw in the window (${winS}); none where no probe ran`, [[L(), maxima(tl.queueDepthMax)]]);
  gauge(CLIENT_METRIC.inFlightMax, `Most requests in flight at once in the window (${winS}), seen at sends`, [[L(), maxima(tl.inFlightMax)]]);
  if (r.target.kind !== 'http') {
    gauge(METRIC.virtualTime, 'Virtual time since the start of the run (seconds)', [[L(), [[0, 0], ...Array.from({ length: n }, (_, i) => [windowEnd(i), windowEnd(i) / 1000] as const)]]], 'seconds');
  }

  // Whole run: 0 at the start, the total at the end.
  const ops = Object.entries(r.operations);
  counter(CLIENT_METRIC.responses, 'Answers by operation and HTTP status, status 0: no answer (timeout or transport error) (start and end of the run)',
    ops.flatMap(([op, o]) => Object.entries(o.byStatus).map(([st, v]): Series => [L(['operation', op], ['status', st]), whole(v)])));
  counter(CLIENT_METRIC.retries429, 'Requests re-sent after a 429 and a back-off (start and end of the run)', ops.map(([op, o]) => [L(['operation', op]), whole(o.retried429)]));
  counter(family(METRIC.jobsAccepted), 'Jobs the API accepted (an id came back); no kind label (start and end of the run)', [[L(), whole(r.jobs.accepted)]]);
  counter(family(METRIC.jobsRequeued), '/retry calls that re-queued a FAILED or TIMED_OUT job (start and end of the run)', [[L(['reason', 'retry']), whole(r.jobs.retriedByClient)]]);
  const wh = r.webhooks;
  if (wh.attempts > 0) {
    counter(family(METRIC.webhookAttempts), 'Webhook attempts by outcome: delivered, failed (retried later), gave-up (the last attempt failed) (start and end of the run)', [
      [L(['outcome', 'delivered']), whole(wh.delivered)], [L(['outcome', 'failed']), whole(wh.failedAttempts - wh.gaveUp)], [L(['outcome', 'gave-up']), whole(wh.gaveUp)],
    ]);
  }
  counter(CLIENT_METRIC.sessions, 'Client sessions by flow and how they ended (start and end of the run)',
    Object.entries(r.flows).flatMap(([flow, f]) => Object.entries(f.outcomes).map(([o, v]): Series => [L(['flow', flow], ['outcome', o]), whole(v)])));
  const wk = r.workers;
  if (wk) {
    counter(CLIENT_METRIC.workerSeconds, 'Worker-seconds by worker state, as the simulator ran them (start and end of the run)',
      Object.entries(wk.secondsByState).map(([s, v]): Series => [L(['state', s]), whole(v)]), 'seconds');
    counter(CLIENT_METRIC.workerBilledSeconds, 'Billed worker-seconds: flex workers rounded up per worker, idle tail included; active workers for the whole run (start and end of the run)',
      [[L(['billing', 'flex']), whole(wk.billedSeconds.flex)], [L(['billing', 'active']), whole(wk.billedSeconds.active)]], 'seconds');
  }

  const histogram = (name: string, help: string, labels: Labels, e: EncodedHistogram) => {
    if (!e.count) return;
    const { cumulative, sumMs } = bucketCounts(e, DURATION_BUCKETS_S.map((s) => s * 1000));
    w.family(name, 'histogram', help, 'seconds');
    for (const [t, k] of [[0, 0], [endMs, 1]] as const) {
      DURATION_BUCKETS_S.forEach((le, j) => w.sample(`${name}_bucket`, [...labels, ['le', canonicalNumber(le)]], k * cumulative[j]!, startMs + t));
      w.sample(`${name}_bucket`, [...labels, ['le', '+Inf']], k * e.count, startMs + t);
      w.sample(`${name}_count`, labels, k * e.count, startMs + t);
      w.sample(`${name}_sum`, labels, (k * sumMs) / 1000, startMs + t);
    }
  };
  histogram(METRIC.jobDelay, 'delayTime of terminal status bodies read by clients (start and end of the run)', L(), r.jobs.queueDelayMs);
  histogram(METRIC.jobExecution, 'executionTime of terminal status bodies read by clients; no status label (start and end of the run)', L(), r.jobs.executionMs);

  const summary = (name: string, help: string, series: readonly (readonly [Labels, EncodedHistogram])[]) => {
    const used = series.filter(([, e]) => e.count > 0);
    if (!used.length) return;
    w.family(name, 'summary', help, 'seconds');
    for (const [labels, e] of used) {
      for (const [q, key] of QUANTILES) w.sample(name, [...labels, ['quantile', canonicalNumber(q)]], e.summary[key] / 1000, startMs + endMs);
      w.sample(`${name}_count`, labels, e.count, startMs + endMs);
      w.sample(`${name}_sum`, labels, bucketCounts(e, []).sumMs / 1000, startMs + endMs);
    }
  };
  summary(CLIENT_METRIC.responseSeconds, 'Intended send to answer, so waits before sending count (whole run, at its end)', ops.map(([op, o]) => [L(['operation', op]), o.responseMs]));
  summary(CLIENT_METRIC.serviceSeconds, 'Actual send to answer (whole run, at its end)', ops.map(([op, o]) => [L(['operation', op]), o.serviceMs]));
  summary(CLIENT_METRIC.cancelLatencySeconds, '/cancel sent to the answer CANCELLED (whole run, at its end)', [[L(), r.jobs.cancelLatencyMs]]);
  summary(CLIENT_METRIC.webhookLatenessSeconds, 'Acknowledged webhook delivery minus job end (whole run, at its end)', [[L(), r.webhooks.latenessMs]]);
  summary(CLIENT_METRIC.sendLagSeconds, 'Actual minus intended send time of every request (whole run, at its end)', [[L(), r.arrivals.sendLagMs]]);
}
