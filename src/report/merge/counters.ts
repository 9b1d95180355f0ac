/**
 * The run's counters summed over shards: requests and answers per operation, sessions and
 * outcomes per flow, jobs, webhooks, streams and arrivals. Histograms beside them add exactly
 * (histograms.ts). Keys come out sorted, so the result does not depend on the inputs' order.
 */
import type {
  ArrivalStats,
  FlowJobStats,
  FlowStats,
  JobSeries,
  JobStats,
  LimitCauseName,
  OperationStats,
  RunResult,
  StreamStats,
  WebhookStats,
} from '../run-result.js';
import { mergeEncoded } from '../histogram.js';
import { BALANCER_CAUSES, type BalancerCause } from '../../contract/sim-events.js';
import { mergeFlowTurns } from './turns.js';
import { mergeFlowStream } from './streams.js';

type Counts = Record<string, number>;

/** Counts by key added, keys sorted. */
export function sumCounts(list: readonly (Counts | undefined)[]): Counts {
  const out: Counts = {};
  for (const c of list) for (const [k, v] of Object.entries(c ?? {})) out[k] = (out[k] ?? 0) + v;
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

const sum = <T>(list: readonly T[], f: (x: T) => number) => list.reduce((n, x) => n + f(x), 0);

/** The sorted union of the keys of several records. */
export function keysOf(list: readonly Record<string, unknown>[]): string[] {
  return [...new Set(list.flatMap((r) => Object.keys(r)))].sort();
}

const LIMIT_CAUSES: readonly LimitCauseName[] = ['rate', 'concurrency', 'queue', 'unknown'];

function mergeOperation(list: readonly OperationStats[]): OperationStats {
  return {
    requests: sum(list, (o) => o.requests),
    byStatus: sumCounts(list.map((o) => o.byStatus)),
    limited: Object.fromEntries(LIMIT_CAUSES.map((c) => [c, sum(list, (o) => o.limited[c] ?? 0)])) as Record<LimitCauseName, number>,
    ...mergeBalancerFailed(list),
    retried429: sum(list, (o) => o.retried429),
    clientTimeouts: sum(list, (o) => o.clientTimeouts),
    transportErrors: sum(list, (o) => o.transportErrors),
    responseMs: mergeEncoded(list.map((o) => o.responseMs)),
    serviceMs: mergeEncoded(list.map((o) => o.serviceMs)),
  };
}

/** A load-balancing endpoint's balancer answers by cause, summed (absent when no shard has them). */
export function mergeBalancerFailed(list: readonly OperationStats[]): Pick<OperationStats, 'balancerFailed'> {
  const have = list.filter((o) => o.balancerFailed !== undefined);
  if (!have.length) return {};
  return { balancerFailed: Object.fromEntries(BALANCER_CAUSES.map((c) => [c, sum(have, (o) => o.balancerFailed![c] ?? 0)])) as Record<BalancerCause, number> };
}

export function mergeOperations(rs: readonly RunResult[]): Record<string, OperationStats> {
  return Object.fromEntries(keysOf(rs.map((r) => r.operations)).map((op) => [op, mergeOperation(rs.flatMap((r) => r.operations[op] ?? []))]));
}

const JOB_SERIES: readonly JobSeries[] = ['turnaroundMs', 'queueDelayMs', 'executionMs', 'coldStartMs'];

function mergeFlowJobs(list: readonly FlowJobStats[]): FlowJobStats | undefined {
  if (!list.length) return undefined;
  const out = {} as FlowJobStats;
  for (const s of JOB_SERIES) {
    const parts = list.flatMap((j) => j[s] ?? []);
    if (parts.length) out[s] = mergeEncoded(parts);
  }
  return out;
}

/** Per flow: sessions, outcomes and a closed flow's users summed; operation, behaviour and arrival are the scenario's (the first input's). */
export function mergeFlows(rs: readonly RunResult[]): Record<string, FlowStats> {
  return Object.fromEntries(
    keysOf(rs.map((r) => r.flows)).map((name) => {
      const list = rs.flatMap((r) => r.flows[name] ?? []);
      const jobs = mergeFlowJobs(list.flatMap((f) => f.jobs ?? []));
      const f: FlowStats = {
        operation: list[0]!.operation,
        behaviour: list[0]!.behaviour,
        arrival: list[0]!.arrival,
        // A closed flow's shards each drove their share of its users (user i on shard i mod N).
        ...(list.some((x) => x.users !== undefined) ? { users: sum(list, (x) => x.users ?? 0) } : {}),
        sessions: sum(list, (x) => x.sessions),
        outcomes: sumCounts(list.map((x) => x.outcomes)),
      };
      const stream = mergeFlowStream(list.flatMap((x) => x.stream ?? []));
      const turns = mergeFlowTurns(list.flatMap((x) => x.turns ?? []));
      return [name, { ...f, ...(jobs ? { jobs } : {}), ...(stream ? { stream } : {}), ...(turns ? { turns } : {}) }];
    }),
  );
}

export function mergeJobs(list: readonly JobStats[]): JobStats {
  const anyOutcomes = list.some((j) => j.outcomes);
  const anyPurged = list.some((j) => j.purged !== undefined);
  return {
    accepted: sum(list, (j) => j.accepted),
    finalStatus: sumCounts(list.map((j) => j.finalStatus)),
    ...(anyOutcomes ? { outcomes: sumCounts(list.map((j) => j.outcomes)) } : {}),
    ...(anyPurged ? { purged: sum(list, (j) => j.purged ?? 0) } : {}),
    queueDelayMs: mergeEncoded(list.map((j) => j.queueDelayMs)),
    executionMs: mergeEncoded(list.map((j) => j.executionMs)),
    retentionExpiriesSeen: sum(list, (j) => j.retentionExpiriesSeen),
    retriedByClient: sum(list, (j) => j.retriedByClient),
    cancelLatencyMs: mergeEncoded(list.map((j) => j.cancelLatencyMs)),
    cancelled: sum(list, (j) => j.cancelled),
  };
}

export function mergeWebhooks(list: readonly WebhookStats[]): WebhookStats {
  return {
    attempts: sum(list, (w) => w.attempts),
    delivered: sum(list, (w) => w.delivered),
    failedAttempts: sum(list, (w) => w.failedAttempts),
    retries: sum(list, (w) => w.retries),
    gaveUp: sum(list, (w) => w.gaveUp),
    latenessMs: mergeEncoded(list.map((w) => w.latenessMs)),
    // Shards over HTTP each had a receiver: kept when any input has one.
    ...(list.some((w) => w.refused !== undefined) ? { refused: sum(list, (w) => w.refused ?? 0) } : {}),
    ...(list.some((w) => w.malformed !== undefined) ? { malformed: sum(list, (w) => w.malformed ?? 0) } : {}),
  };
}

export function mergeStreams(list: readonly StreamStats[]): StreamStats {
  return { calls: sum(list, (s) => s.calls), chunks: sum(list, (s) => s.chunks) };
}

export function mergeArrivals(list: readonly ArrivalStats[]): ArrivalStats {
  return {
    intended: sum(list, (a) => a.intended),
    sent: sum(list, (a) => a.sent),
    late: sum(list, (a) => a.late),
    dropped: sum(list, (a) => a.dropped),
    sendLagMs: mergeEncoded(list.map((a) => a.sendLagMs)),
  };
}
