/**
 * One scrape of a running run: the recorder's cumulative totals, whole-run histograms and the
 * latest endpoint sample as a LiveSnapshot (telemetry/live-run-registry.ts). Read only at scrape
 * time — the run's hot path does nothing for it. Counters only grow while the run goes on
 * (sessions `unfinished` appear once it has ended), and once it has ended every total equals
 * report.json's: the same recorder makes both. Histograms use metrics.om's HDR→bucket rule
 * (report/histogram-buckets.ts).
 */
import { DURATION_BUCKETS_S, STREAM_BUCKETS_MS } from '../../contract/metric-names.js';
import type { Operation } from '../../contract/operations.js';
import type { EncodedHistogram } from '../../report/histogram.js';
import { bucketCounts, SUMMARY_QUANTILES } from '../../report/histogram-buckets.js';
import type { HistogramPoint, LiveSnapshot, Point, SummaryPoint } from '../../telemetry/live-run-registry.js';
import type { LabelSet } from '../../telemetry/scraped-metric.js';
import { limitsOf, perTenSeconds, queueThrottleAt } from '../record/headroom.js';
import { WORKER_STATES } from '../record/endpoint-series.js';
import type { RunHandle } from '../run-scenario.js';
import type { Scenario } from '../scenario/schema.js';

export interface LiveRunState {
  run: RunHandle;
  sc: Scenario;
  /** Wall clock, Unix ms. */
  startWallMs: number;
  /** Wall clock, Unix ms; undefined while the run goes on. */
  endWallMs: number | undefined;
}

const BOUNDS_MS = DURATION_BUCKETS_S.map((s) => s * 1000);

const sum = (col: readonly number[]) => col.reduce((a, b) => a + b, 0);
const one = (value: number, labels: LabelSet = {}): Point[] => [{ labels, value }];

/** `boundsMs`: the family's buckets (the stream times have their own finer ones, as in metrics.om). */
function histogram(labels: LabelSet, e: EncodedHistogram, boundsMs: readonly number[] = BOUNDS_MS): HistogramPoint[] {
  if (!e.count) return [];
  const { cumulative, sumMs } = bucketCounts(e, boundsMs);
  return [{ labels, cumulative, count: e.count, sumSeconds: sumMs / 1000 }];
}

function summary(labels: LabelSet, e: EncodedHistogram): SummaryPoint[] {
  if (!e.count) return [];
  return [
    { labels, quantiles: SUMMARY_QUANTILES.map(([q, k]) => [q, e.summary[k] / 1000] as const), count: e.count, sumSeconds: bucketCounts(e, []).sumMs / 1000 },
  ];
}

export function readLiveRun(s: LiveRunState): LiveSnapshot {
  const { rec, target, seed } = s.run;
  const sec = rec.sections();
  const tl = rec.tl.result(0);
  const ops = Object.entries(sec.operations);
  const flows = Object.entries(sec.flows);
  const streams = flows.flatMap(([flow, f]) => (f.stream ? [[flow, f.stream] as const] : []));
  const causes = [
    ['rate', tl.limitedRate],
    ['concurrency', tl.limitedConcurrency],
    ['queue', tl.limitedQueue],
    ['unknown', tl.limitedUnknown],
  ] as const;
  const wh = sec.webhooks;
  const outcomes = (flow: string, o: Record<string, number>, started: number): Point[] => {
    const pts = Object.entries(o).map(([outcome, v]) => ({ labels: { flow, outcome }, value: v }));
    const left = started - sum(Object.values(o));
    // Sessions still open are not an outcome while they may yet end: counted once the run has.
    if (s.endWallMs !== undefined && left > 0) pts.push({ labels: { flow, outcome: 'unfinished' }, value: left });
    return pts;
  };
  return {
    counters: {
      requests: ops.map(([operation, o]) => ({ labels: { operation }, value: o.requests })),
      responses: ops.flatMap(([operation, o]) => Object.entries(o.byStatus).map(([status, v]) => ({ labels: { operation, status }, value: v }))),
      responses2xx: one(sum(tl.responses2xx)),
      limited: causes.filter(([c, col]) => c !== 'unknown' || sum(col) > 0).map(([cause, col]) => ({ labels: { cause }, value: sum(col) })),
      balancerFailed: Object.entries(sec.operations.lb?.balancerFailed ?? {}).map(([cause, v]) => ({ labels: { cause }, value: v })),
      timeouts: one(sum(tl.clientTimeouts)),
      jobsFinished: [
        { labels: { status: 'COMPLETED' }, value: sum(tl.jobsCompleted) },
        ...Object.entries(sec.jobs.finalStatus)
          .filter(([st]) => st !== 'COMPLETED')
          .map(([status, v]) => ({ labels: { status }, value: v })),
      ],
      jobsFailed: one(sum(tl.jobsFailed)),
      expiriesSeen: one(sum(tl.expiriesSeen)),
      webhookFailures: one(sum(tl.webhookFailures)),
      streamChunks: one(sum(tl.streamChunks)),
      arrivalsLate: one(sum(tl.late)),
      arrivalsDropped: one(sum(tl.dropped)),
      retries429: ops.map(([operation, o]) => ({ labels: { operation }, value: o.retried429 })),
      jobsAccepted: one(sec.jobs.accepted),
      jobsRequeued: one(sec.jobs.retriedByClient, { reason: 'retry' }),
      webhookAttempts:
        wh.attempts > 0
          ? [
              ['delivered', wh.delivered],
              ['failed', wh.failedAttempts - wh.gaveUp],
              ['gave-up', wh.gaveUp],
            ].map(([outcome, v]) => ({ labels: { outcome: String(outcome) }, value: Number(v) }))
          : [],
      sessions: flows.flatMap(([flow, f]) => outcomes(flow, f.outcomes, f.sessions)),
      streamRequests: streams.map(([flow, st]) => ({ labels: { flow }, value: st.requests })),
      streamTokens: streams.map(([flow, st]) => ({ labels: { flow }, value: st.tokens })),
      streamGoodRequests: streams.flatMap(([flow, st]) => (st.good === undefined ? [] : [{ labels: { flow }, value: st.good }])),
    },
    gauges: {
      run: one(1, { seed: String(seed), kind: 'run', target: target.kind, causes: target.causesReported ? 'reported' : 'inferred' }),
      runStartTime: one(s.startWallMs / 1000),
      runEndTime: s.endWallMs === undefined ? [] : one(s.endWallMs / 1000),
      inFlight: [...rec.ops].sort(([a], [b]) => (a < b ? -1 : 1)).map(([operation, o]) => ({ labels: { operation }, value: o.inFlight })),
      ...endpointGauges(s),
      limit: limitPoints(s),
      virtualTime: target.clock === 'virtual' ? one(target.now() / 1000) : [],
    },
    histograms: {
      response: ops.flatMap(([operation, o]) => histogram({ operation }, o.responseMs)),
      turnaround: flows.flatMap(([flow, f]) => (f.jobs ? histogram({ flow }, f.jobs.turnaroundMs) : [])),
      queueDelay: flows.flatMap(([flow, f]) => (f.jobs ? histogram({ flow }, f.jobs.queueDelayMs) : [])),
      execution: flows.flatMap(([flow, f]) => (f.jobs ? histogram({ flow }, f.jobs.executionMs) : [])),
      coldStart: flows.flatMap(([flow, f]) => (f.jobs?.coldStartMs ? histogram({ flow }, f.jobs.coldStartMs) : [])),
      ttft: streams.flatMap(([flow, st]) => histogram({ flow }, st.ttftMs, STREAM_BUCKETS_MS)),
      itl: streams.flatMap(([flow, st]) => histogram({ flow }, st.itlMs, STREAM_BUCKETS_MS)),
      tpot: streams.flatMap(([flow, st]) => histogram({ flow }, st.tpotMs, STREAM_BUCKETS_MS)),
    },
    summaries: {
      service: ops.flatMap(([operation, o]) => summary({ operation }, o.serviceMs)),
      cancelLatency: summary({}, sec.jobs.cancelLatencyMs),
      webhookLateness: summary({}, wh.latenessMs),
      sendLag: summary({}, sec.arrivals.sendLagMs),
    },
  };
}

/**
 * The endpoint now: the target's own view where it has one (its watcher's latest window), else
 * the last `/health` answer the client read; nothing without either. The queue gauge
 * `queue_jobs_max` is the last probe: the target's, else that answer's queue. The workers on each
 * GPU type likewise (an endpoint that lists its gpus).
 */
function endpointGauges(
  s: LiveRunState,
): Pick<LiveSnapshot['gauges'], 'queueJobsMax' | 'endpointQueueJobs' | 'endpointJobsInSystem' | 'endpointWorkers' | 'endpointWorkersByGpu'> {
  const { rec, target } = s.run;
  const watched = watcherRow(s);
  const row = watched?.row ?? rec.health.latest;
  const gpus = watched ? watched.gpus : rec.health.gpus.latest;
  const probe = target.probe();
  const queue = probe ? probe.queueDepth : rec.health.latest?.[0];
  return {
    queueJobsMax: queue === undefined ? [] : one(queue),
    endpointQueueJobs: row ? one(row[0]!) : [],
    endpointJobsInSystem: row ? one(row[1]!) : [],
    endpointWorkers: row ? WORKER_STATES.map((state, k) => ({ labels: { state }, value: row[2 + k]! })) : [],
    endpointWorkersByGpu: (gpus ?? []).flatMap(({ gpu, counts }) => WORKER_STATES.map((state, k) => ({ labels: { gpu, state }, value: counts[k]! }))),
  };
}

/** The watcher's latest window: a row in ENDPOINT_SERIES order, and the workers on each GPU type; undefined where it has none yet. */
function watcherRow(s: LiveRunState): { row: number[]; gpus: { gpu: string; counts: number[] }[] | undefined } | undefined {
  const { rec, target } = s.run;
  const endMs = Math.max(1, target.now());
  const n = Math.ceil(endMs / rec.histWindowMs);
  const w = rec.endpointWatcher?.windows(endMs, n);
  const i = n - 1;
  if (!w || !(w.queueLength[i]! >= 0)) return undefined;
  return {
    row: [w.queueLength[i]!, w.jobsInSystem[i]!, ...WORKER_STATES.map((st) => w.workers[st][i]!)],
    gpus: w.byGpu?.map((g) => ({ gpu: g.gpu, counts: WORKER_STATES.map((st) => g.workers[st][i]!) })),
  };
}

/** The headroom section's limits (run-result `headroom`): rate per second = the per-10 s limit ÷ 10. */
function limitPoints(s: LiveRunState): Point[] {
  const cfg = s.sc.endpoint;
  const limits = limitsOf(cfg);
  const pts: Point[] = [];
  for (const operation of [...s.run.rec.ops.keys()].sort()) {
    const lim = limits[operation as Operation];
    if (!lim) continue;
    if (lim.rate !== null) pts.push({ labels: { limit: 'rate', operation }, value: perTenSeconds(cfg, lim.rate) / 10 });
    if (lim.concurrency !== null) pts.push({ labels: { limit: 'concurrency', operation }, value: lim.concurrency });
  }
  pts.push({ labels: { limit: 'queue' }, value: queueThrottleAt(cfg) }, { labels: { limit: 'workers' }, value: cfg.workersMax });
  return pts;
}
