/**
 * The threshold metrics, a registry: each declares the selector kinds it honours (anything else
 * is rejected at load), the `status` values it knows, and — when it can be checked per window
 * (`every`) — how to read one window span. Values are read from a RunResult, so a stored report
 * can be re-checked. `null`: no data.
 */
import { mergeEncoded, mergeWindowEncodings, summarize, type EncodedHistogram, type Histogram } from './histogram.js';
import type { FlowStreamStats, JobSeries, OperationStats, RunResult, StreamSeries, StreamWindows } from './run-result.js';
import { streamWindowSpan } from './stream-scale.js';
import { BALANCER_CAUSES, type BalancerCause } from '../contract/sim-events.js';
import type { Selection, SelectorKind } from './threshold-parse.js';

/** The parts of a RunResult thresholds read (a run in progress has only these; `elapsedMs`: the run so far). */
export type ThresholdInput = Pick<RunResult, 'version' | 'operations' | 'flows' | 'jobs' | 'webhooks' | 'arrivals' | 'windows'> & { elapsedMs?: number };

export interface MetricDef {
  selectors: readonly SelectorKind[];
  /** Values `{status=…}` accepts; `'http'`: an HTTP status code. */
  statuses?: readonly string[] | 'http';
  /** Values `{cause=…}` accepts. */
  causes?: readonly string[];
  value(r: ThresholdInput, s: Selection): number | null;
  /** The value over stored windows [from, to) of `r.windows`; absent: no `every`. */
  window?(r: ThresholdInput, s: Selection, from: number, to: number): number | null;
  /**
   * Times measured from the intended send (response time, turnaround): a late send adds to them,
   * so a run with late arrivals judges the threshold again from the actual send (from-send.ts).
   */
  fromIntended?: true;
  /** Said after a refused selector: what to use instead. */
  hint?: string;
  /**
   * Read from streamed answers: the selected flows must include a streaming one (goodput: one with
   * targets); `turns`: a multi-turn flow (openai-chat with turns).
   */
  needs?: 'stream' | 'goodput' | 'turns';
}

/**
 * What a session's job can end as (JobStats.outcomes): the final status read, or how the session
 * lost the job (`timeout`: an OpenAI request whose server wait ended first; `error`: a streamed
 * OpenAI answer that broke after its first token).
 */
export const JOB_OUTCOMES = [
  'COMPLETED',
  'FAILED',
  'CANCELLED',
  'TIMED_OUT',
  'purged',
  'expired',
  'gave-up',
  'webhook-lost',
  'timeout',
  'error',
  'unfinished',
] as const;

type Stat = 'p50' | 'p90' | 'p95' | 'p99' | 'max' | 'mean';
const STATS: readonly Stat[] = ['p50', 'p90', 'p95', 'p99', 'max', 'mean'];

/** A statistic in ms as the report's summaries give it (summarize: percentiles capped at the max); `h` holds ms × `scale`. */
function stat(h: Histogram | undefined, s: Stat, scale = 1): number | null {
  return h && h.totalCount ? summarize(h, scale)[s] : null;
}
/** One histogram: its stored summary (what report.md shows); several: their sum's. */
const statOf = (list: readonly EncodedHistogram[], s: Stat) => {
  const m = list.length === 1 ? list[0]! : mergeEncoded(list);
  return m.count ? m.summary[s] : null;
};
const slice = (series: Iterable<string[]>, from: number, to: number) => [...series].flatMap((a) => a.slice(from, to));

const ops = (r: ThresholdInput, sel: Selection): OperationStats[] =>
  Object.entries(r.operations)
    .filter(([k]) => sel.operation === undefined || k === sel.operation)
    .map(([, v]) => v);
const opWindows = (r: ThresholdInput, sel: Selection) =>
  Object.entries(r.windows?.responseMs ?? {})
    .filter(([k]) => sel.operation === undefined || k === sel.operation)
    .map(([, v]) => v);

function latency(s: Stat): MetricDef {
  return {
    selectors: ['operation'],
    fromIntended: true,
    value: (r, sel) =>
      statOf(
        ops(r, sel).map((o) => o.responseMs),
        s,
      ),
    window: (r, sel, from, to) => stat(mergeWindowEncodings(slice(opWindows(r, sel), from, to)), s),
  };
}

/** A count or share of requests; `{status=429}` counts answers with that HTTP status. */
function requestMetric(f: (o: OperationStats, sel: Selection) => number, share: boolean): MetricDef {
  return {
    selectors: share ? ['operation'] : ['operation', 'status'],
    statuses: 'http',
    value: (r, sel) => {
      const all = ops(r, sel);
      const n = all.reduce((a, o) => a + f(o, sel), 0);
      if (!share) return n;
      const total = all.reduce((a, o) => a + o.requests, 0);
      return total ? n / total : null;
    },
  };
}
const non2xx = (o: OperationStats) => Object.entries(o.byStatus).reduce((n, [s, c]) => (s.startsWith('2') ? n : n + c), 0);

/** Jobs that ended in one of `outcomes`, over the run or one flow's sessions. */
function jobCount(...outcomes: string[]): MetricDef {
  return {
    selectors: ['flow'],
    value: (r, sel) => {
      const counts = sel.flow === undefined ? (r.jobs.outcomes ?? r.jobs.finalStatus) : (r.flows[sel.flow]?.outcomes ?? {});
      return outcomes.reduce((n, s) => n + (counts[s] ?? 0), 0);
    },
  };
}

/**
 * Every accepted job of the run, whatever it ended as; of one flow, its sessions that ended in a
 * job category (a flow's outcomes are its sessions': its `timeout` and `error` include sessions
 * whose request failed before a job was accepted).
 */
function allJobs(r: ThresholdInput, sel: Selection): number {
  if (sel.flow !== undefined) return jobCount(...JOB_OUTCOMES).value(r, sel)!;
  return Object.values(r.jobs.outcomes ?? r.jobs.finalStatus).reduce((n, c) => n + c, 0);
}

/** A job histogram of one flow (`{flow=…}`) or all. Version 1 has queue delay and execution for all flows only. */
function jobTime(series: JobSeries, s: Stat): MetricDef {
  const flows = (r: ThresholdInput, sel: Selection) => Object.entries(r.flows).filter(([k]) => sel.flow === undefined || k === sel.flow);
  return {
    selectors: ['flow'],
    ...(series === 'turnaroundMs' ? { fromIntended: true as const } : {}),
    value: (r, sel) => {
      const list = flows(r, sel).flatMap(([, f]) => (f.jobs?.[series] ? [f.jobs[series]] : []));
      if (!list.length && sel.flow === undefined && (series === 'queueDelayMs' || series === 'executionMs') && r.version === 1)
        return statOf([r.jobs[series]], s);
      return statOf(list, s);
    },
    window: (r, sel, from, to) => {
      const w = r.windows?.flows ?? {};
      return stat(
        mergeWindowEncodings(
          slice(
            Object.entries(w)
              .filter(([k]) => sel.flow === undefined || k === sel.flow)
              .flatMap(([, f]) => (f[series] ? [f[series]] : [])),
            from,
            to,
          ),
        ),
        s,
      );
    },
  };
}

/** The streaming flows (`{flow=…}` or all) and their per-window columns. */
const streamFlows = (r: ThresholdInput, sel: Selection): FlowStreamStats[] =>
  Object.entries(r.flows)
    .filter(([k, f]) => f.stream && (sel.flow === undefined || k === sel.flow))
    .map(([, f]) => f.stream!);
const streamWindows = (r: ThresholdInput, sel: Selection): StreamWindows[] =>
  Object.entries(r.windows?.streams ?? {})
    .filter(([k]) => sel.flow === undefined || k === sel.flow)
    .map(([, w]) => w);
const sumSlice = (a: readonly number[] | undefined, from: number, to: number) => (a ?? []).slice(from, to).reduce((n, v) => n + v, 0);

/** A stream histogram of one flow (`{flow=…}`) or all streaming flows (times in ms with their fraction). */
function streamTime(series: StreamSeries, s: Stat): MetricDef {
  return {
    selectors: ['flow'],
    needs: 'stream',
    value: (r, sel) =>
      statOf(
        streamFlows(r, sel).map((f) => f[series]),
        s,
      ),
    // Stream times are at 0.01 ms (scale 100) in current reports, whole ms in older ones.
    window: (r, sel, from, to) => {
      const span = streamWindowSpan(streamWindows(r, sel), series, from, to);
      return span ? stat(span.h, s, span.scale) : null;
    },
  };
}

/** Session time of the multi-turn flows (`{flow=…}` or all): sessions that answered every turn, first intended send → last answer. */
function sessionTime(s: Stat): MetricDef {
  return {
    selectors: ['flow'],
    needs: 'turns',
    value: (r, sel) =>
      statOf(
        Object.entries(r.flows).flatMap(([k, f]) => (f.turns && (sel.flow === undefined || k === sel.flow) ? [f.turns.sessionMs] : [])),
        s,
      ),
  };
}

/** Output tokens per second of the run (all tokens / run length), or per window (tokens in it / its length). */
const outputTokensPerS: MetricDef = {
  selectors: ['flow'],
  needs: 'stream',
  value: (r, sel) => {
    const flows = streamFlows(r, sel);
    if (!flows.length || !r.elapsedMs) return null;
    return flows.reduce((n, f) => n + f.tokens, 0) / (r.elapsedMs / 1000);
  },
  window: (r, sel, from, to) => {
    const w = streamWindows(r, sel);
    const W = r.windows!.windowMs;
    // The run's last window may be cut short by its end.
    const spanMs = Math.min(to * W, r.elapsedMs ?? Infinity) - from * W;
    if (!w.length || spanMs <= 0) return null;
    return w.reduce((n, f) => n + sumSlice(f.tokens, from, to), 0) / (spanMs / 1000);
  },
};

/** The share of streamed requests within their flow's goodput targets (flows without targets: no data). */
const goodput: MetricDef = {
  selectors: ['flow'],
  needs: 'goodput',
  value: (r, sel) => {
    const flows = streamFlows(r, sel).filter((f) => f.good !== undefined);
    const n = flows.reduce((a, f) => a + f.requests, 0);
    return n ? flows.reduce((a, f) => a + f.good!, 0) / n : null;
  },
  window: (r, sel, from, to) => {
    const w = streamWindows(r, sel).filter((f) => f.good !== undefined);
    const n = w.reduce((a, f) => a + sumSlice(f.requests, from, to), 0);
    return n ? w.reduce((a, f) => a + sumSlice(f.good, from, to), 0) / n : null;
  },
};

const plain = (value: (r: ThresholdInput) => number | null): MetricDef => ({ selectors: [], value });

const METRIC_TABLE: Record<string, MetricDef> = {
  requests: requestMetric((o, sel) => (sel.status === undefined ? o.requests : (o.byStatus[sel.status] ?? 0)), false),
  // 429 answers only: a status selector would have nothing to select (requests{status=…} counts any status).
  limited: {
    ...requestMetric((o) => o.byStatus['429'] ?? 0, false),
    selectors: ['operation'],
    hint: 'limited counts 429 answers; requests{status=…} counts the answers of any status',
  },
  limited_rate: requestMetric((o) => o.byStatus['429'] ?? 0, true),
  error_rate: requestMetric(non2xx, true),
  // A load-balancing endpoint's requests its balancer ended, by cause (OperationStats.balancerFailed); 0 on a queue endpoint.
  balancer_failed: {
    selectors: ['operation', 'cause'],
    causes: BALANCER_CAUSES,
    value: (r, sel) =>
      ops(r, sel).reduce((n, o) => {
        const f = o.balancerFailed;
        if (!f) return n;
        return n + (sel.cause === undefined ? Object.values(f).reduce((a, b) => a + b, 0) : (f[sel.cause as BalancerCause] ?? 0));
      }, 0),
  },
  client_timeouts: { selectors: ['operation'], value: (r, sel) => ops(r, sel).reduce((n, o) => n + o.clientTimeouts, 0) },
  jobs_accepted: plain((r) => r.jobs.accepted),
  // Without {status=…}: every job, whatever it ended as (allJobs).
  jobs: {
    selectors: ['flow', 'status'],
    statuses: JOB_OUTCOMES,
    value: (r, sel) => (sel.status === undefined ? allJobs(r, sel) : jobCount(sel.status).value(r, sel)),
  },
  jobs_completed: jobCount('COMPLETED'),
  jobs_failed: jobCount('FAILED', 'TIMED_OUT'),
  jobs_cancelled: jobCount('CANCELLED'),
  jobs_purged: plain((r) => r.jobs.purged ?? 0),
  expired_seen: plain((r) => r.jobs.retentionExpiriesSeen),
  webhook_failures: plain((r) => r.webhooks.failedAttempts),
  webhooks_lost: plain((r) => r.webhooks.gaveUp),
  late_arrivals: plain((r) => r.arrivals.late),
  dropped_arrivals: plain((r) => r.arrivals.dropped),
  output_tokens_per_s: outputTokensPerS,
  goodput,
};
for (const s of STATS) {
  const name = s;
  METRIC_TABLE[`${name}_ms`] = latency(s);
  METRIC_TABLE[`turnaround_${name}_ms`] = jobTime('turnaroundMs', s);
  METRIC_TABLE[`queue_delay_${name}_ms`] = jobTime('queueDelayMs', s);
  METRIC_TABLE[`execution_${name}_ms`] = jobTime('executionMs', s);
  METRIC_TABLE[`cold_start_${name}_ms`] = jobTime('coldStartMs', s);
  METRIC_TABLE[`ttft_${name}_ms`] = streamTime('ttftMs', s);
  METRIC_TABLE[`itl_${name}_ms`] = streamTime('itlMs', s);
  METRIC_TABLE[`tpot_${name}_ms`] = streamTime('tpotMs', s);
  METRIC_TABLE[`request_tokens_per_s_${name}`] = streamTime('tokensPerS', s);
  METRIC_TABLE[`session_${name}_ms`] = sessionTime(s);
}

export const METRICS: Readonly<Record<string, MetricDef>> = METRIC_TABLE;
