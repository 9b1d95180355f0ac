/**
 * Builds the Comparison of two stored runs (A, the base, and B): per operation, per flow and for
 * the whole run, every figure from the RunResult as report.md shows it (percentiles from the
 * stored summaries), so the numbers match the two reports. Pure.
 */
import type { EncodedHistogram } from '../histogram.js';
import type { FlowStats, OperationStats, RunResult } from '../run-result.js';
import { verdict } from '../verdict.js';
import type { Comparison, GroupComparison, RunSide } from './comparison.js';
import { metricRow, type MetricRow, type MetricSpec } from './metric-row.js';
import { STREAM_TIME_FLOOR_MS } from './regression.js';

export interface NamedRun {
  /** Where the run was read from (shown in the comparison). */
  file: string;
  result: RunResult;
}

type Stat = 'p50' | 'p95' | 'p99';
/** A percentile of a histogram; null when it has no sample. */
const pctl = (h: EncodedHistogram | undefined, s: Stat): number | null => (h && h.count ? h.summary[s] : null);
const sum = (o: Record<string, number>, keep: (k: string) => boolean) => Object.entries(o).reduce((n, [k, v]) => (keep(k) ? n + v : n), 0);
const share = (n: number, of: number): number | null => (of ? n / of : null);
/** 429s, 2xx, non-2xx (the `error_rate` threshold's errors: 429s and no answer included). */
const limited = (o: OperationStats) => o.byStatus['429'] ?? 0;
const ok2xx = (o: OperationStats) => sum(o.byStatus, (k) => k.startsWith('2'));
const non2xx = (o: OperationStats) => sum(o.byStatus, (k) => !k.startsWith('2'));

/** A metric read from one side (undefined: the side lacks the operation or flow). */
type Read<T> = (x: T) => number | null;
type Spec<T> = MetricSpec & { read: Read<T> };

const latency = <T>(label: string, read: Read<T>, gated = true): Spec<T> => ({ label, unit: 'ms', better: 'lower', gated, read });

const OPERATION: Spec<OperationStats>[] = [
  { label: 'requests', unit: 'count', better: 'neither', read: (o) => o.requests },
  { label: '2xx', unit: 'count', better: 'higher', read: ok2xx },
  { label: '429s', unit: 'count', better: 'lower', read: limited },
  { label: '429 rate', unit: 'rate', better: 'lower', gated: true, read: (o) => share(limited(o), o.requests) },
  { label: 'error rate', unit: 'rate', better: 'lower', gated: true, read: (o) => share(non2xx(o), o.requests) },
  ...(['p50', 'p95', 'p99'] as const).map((s) => latency<OperationStats>(`response ${s}`, (o) => pctl(o.responseMs, s))),
];

const FLOW: Spec<FlowStats>[] = [
  { label: 'sessions', unit: 'count', better: 'neither', read: (f) => f.sessions },
  { label: 'jobs completed', unit: 'count', better: 'higher', read: (f) => f.outcomes.COMPLETED ?? 0 },
  ...(['p50', 'p95', 'p99'] as const).map((s) => latency<FlowStats>(`turnaround ${s}`, (f) => pctl(f.jobs?.turnaroundMs, s))),
  ...(['p50', 'p95', 'p99'] as const).map((s) => latency<FlowStats>(`queue delay ${s}`, (f) => pctl(f.jobs?.queueDelayMs, s))),
  ...(['p50', 'p95'] as const).map((s) => latency<FlowStats>(`execution ${s}`, (f) => pctl(f.jobs?.executionMs, s), false)),
];

/** A stream time (kept to 0.01 ms): its regression floor is finer than whole-ms latencies'. */
const streamTime = (label: string, read: Read<FlowStats>): Spec<FlowStats> => ({ ...latency(label, read), floor: STREAM_TIME_FLOOR_MS });

/** A streaming flow's rows (either side streams): TTFT, ITL, TPOT percentiles, tokens, goodput. */
const STREAM: Spec<FlowStats>[] = [
  ...(['p50', 'p95', 'p99'] as const).map((s) => streamTime(`TTFT ${s}`, (f) => pctl(f.stream?.ttftMs, s))),
  ...(['p50', 'p95', 'p99'] as const).map((s) => streamTime(`ITL ${s}`, (f) => pctl(f.stream?.itlMs, s))),
  ...(['p50', 'p95'] as const).map((s) => streamTime(`TPOT ${s}`, (f) => pctl(f.stream?.tpotMs, s))),
  { label: 'tokens/s per request p50', unit: 'count', better: 'higher', read: (f) => pctl(f.stream?.tokensPerS, 'p50') },
  { label: 'streamed requests', unit: 'count', better: 'neither', read: (f) => f.stream?.requests ?? null },
  { label: 'output tokens', unit: 'count', better: 'neither', read: (f) => f.stream?.tokens ?? null },
  { label: 'broken streams', unit: 'count', better: 'lower', read: (f) => f.stream?.broken ?? null },
  {
    label: 'goodput',
    unit: 'rate',
    better: 'higher',
    gated: true,
    read: (f) => (f.stream?.good === undefined ? null : share(f.stream.good, f.stream.requests)),
  },
];

const allOps = (r: RunResult) => Object.values(r.operations);
const jobOutcomes = (r: RunResult) => r.jobs.outcomes ?? r.jobs.finalStatus;
const TOTALS: Spec<RunResult>[] = [
  { label: 'requests', unit: 'count', better: 'neither', read: (r) => allOps(r).reduce((n, o) => n + o.requests, 0) },
  { label: '2xx', unit: 'count', better: 'higher', read: (r) => allOps(r).reduce((n, o) => n + ok2xx(o), 0) },
  { label: '429s', unit: 'count', better: 'lower', read: (r) => allOps(r).reduce((n, o) => n + limited(o), 0) },
  {
    label: '429 rate',
    unit: 'rate',
    better: 'lower',
    gated: true,
    read: (r) =>
      share(
        allOps(r).reduce((n, o) => n + limited(o), 0),
        allOps(r).reduce((n, o) => n + o.requests, 0),
      ),
  },
  {
    label: 'error rate',
    unit: 'rate',
    better: 'lower',
    gated: true,
    read: (r) =>
      share(
        allOps(r).reduce((n, o) => n + non2xx(o), 0),
        allOps(r).reduce((n, o) => n + o.requests, 0),
      ),
  },
  { label: 'jobs accepted', unit: 'count', better: 'higher', read: (r) => r.jobs.accepted },
  { label: 'jobs completed', unit: 'count', better: 'higher', read: (r) => jobOutcomes(r).COMPLETED ?? 0 },
  { label: 'jobs failed or timed out', unit: 'count', better: 'lower', read: (r) => (jobOutcomes(r).FAILED ?? 0) + (jobOutcomes(r).TIMED_OUT ?? 0) },
  { label: 'expiries seen (404 for a known job)', unit: 'count', better: 'lower', read: (r) => r.jobs.retentionExpiriesSeen },
  { label: 'webhooks delivered', unit: 'count', better: 'higher', read: (r) => r.webhooks.delivered },
  { label: 'webhook attempts failed', unit: 'count', better: 'lower', read: (r) => r.webhooks.failedAttempts },
  { label: 'webhooks given up', unit: 'count', better: 'lower', read: (r) => r.webhooks.gaveUp },
];

/** Runs that billed their workers (report.json `workers`, in-process): rows only when either side has them. */
const WORKERS: Spec<RunResult>[] = [
  {
    label: 'billed worker-seconds',
    unit: 'count',
    better: 'lower',
    read: (r) => (r.workers ? r.workers.billedSeconds.flex + r.workers.billedSeconds.active : null),
  },
  { label: 'cost per 1 000 jobs ($)', unit: 'count', better: 'lower', read: (r) => r.workers?.cost?.per1000Jobs ?? null },
];

function rows<T>(specs: readonly Spec<T>[], a: T | undefined, b: T | undefined): MetricRow[] {
  return specs.map((s) => metricRow(s, a === undefined ? null : s.read(a), b === undefined ? null : s.read(b)));
}

/** Names in A's order, then those only B has; `more`: further rows for a group, by its two sides. */
function groups<T>(
  a: Record<string, T>,
  b: Record<string, T>,
  specs: readonly Spec<T>[],
  more: (a: T | undefined, b: T | undefined) => readonly Spec<T>[] = () => [],
): GroupComparison[] {
  const names = [...Object.keys(a), ...Object.keys(b).filter((k) => !(k in a))];
  return names.map((name) => ({
    name,
    in: !(name in b) ? 'A' : !(name in a) ? 'B' : 'both',
    rows: rows([...specs, ...more(a[name], b[name])], a[name], b[name]),
  }));
}

/** Output tokens/s of the run's streaming flows (all tokens / the run's length); null: none streams. */
function outputTokensPerS(r: RunResult): number | null {
  const streams = Object.values(r.flows).flatMap((f) => f.stream ?? []);
  return streams.length && r.elapsedMs ? Math.round((streams.reduce((n, s) => n + s.tokens, 0) / (r.elapsedMs / 1000)) * 100) / 100 : null;
}
const STREAM_TOTALS: Spec<RunResult>[] = [{ label: 'output tokens/s', unit: 'count', better: 'higher', read: outputTokensPerS }];

function side(n: NamedRun): RunSide {
  const r = n.result;
  return {
    file: n.file,
    scenario: r.scenario.name,
    seed: r.scenario.seed,
    target: r.target.kind,
    version: r.version,
    durationMs: r.scenario.durationMs,
    elapsedMs: r.elapsedMs,
    verdict: verdict(r).line,
  };
}

function warnings(a: NamedRun, b: NamedRun, c: Pick<Comparison, 'operations' | 'flows'>): string[] {
  const [ra, rb] = [a.result, b.result];
  const out: string[] = [];
  if (ra.scenario.name !== rb.scenario.name) out.push(`different scenarios: A is ${ra.scenario.name}, B is ${rb.scenario.name}`);
  if (ra.scenario.durationMs !== rb.scenario.durationMs)
    out.push(`different lengths of traffic: A ${ra.scenario.durationMs / 1000} s, B ${rb.scenario.durationMs / 1000} s (counts do not compare like for like)`);
  if (ra.target.kind !== rb.target.kind) out.push(`different targets: A ${ra.target.kind}, B ${rb.target.kind}`);
  for (const [what, list] of [
    ['operation', c.operations],
    ['flow', c.flows],
  ] as const) {
    for (const g of list) if (g.in !== 'both') out.push(`${what} ${g.name} only in ${g.in}`);
  }
  for (const [k, r] of [
    ['A', ra],
    ['B', rb],
  ] as const) {
    const v = verdict(r);
    if (v.status === 'INVALID') out.push(`${k} is INVALID (${v.cause}): its figures do not describe the target`);
    if (r.version === 1) out.push(`${k} is a version-1 report: no per-flow job times`);
    if (r.interrupted) out.push(`${k} was interrupted at ${r.interrupted.atMs / 1000} s: its figures cover only that far`);
    if (r.aborted) out.push(`${k} was aborted at ${r.aborted.atMs / 1000} s by ${r.aborted.threshold}`);
  }
  return out;
}

export function compareRuns(a: NamedRun, b: NamedRun): Comparison {
  const operations = groups(a.result.operations, b.result.operations, OPERATION);
  const flows = groups(a.result.flows, b.result.flows, FLOW, (fa, fb) => (fa?.stream || fb?.stream ? STREAM : []));
  const streams = outputTokensPerS(a.result) !== null || outputTokensPerS(b.result) !== null;
  return {
    a: side(a),
    b: side(b),
    warnings: warnings(a, b, { operations, flows }),
    operations,
    flows,
    totals: rows([...TOTALS, ...(streams ? STREAM_TOTALS : []), ...(a.result.workers || b.result.workers ? WORKERS : [])], a.result, b.result),
  };
}
