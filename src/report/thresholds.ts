/**
 * Thresholds: `metric{selector} <op> number`, e.g. `p99_ms{runsync} < 5000`, `limited_rate < 0.01`,
 * `jobs_failed == 0`. The selector names an operation (latency and request metrics) and may be
 * left out (all operations). Evaluated on a RunResult, so a stored report can be re-checked.
 */
import { decode, mergeEncoded } from './histogram.js';
import type { RunResult, ThresholdResult } from './run-result.js';

const CMP = { '<': (a: number, b: number) => a < b, '<=': (a: number, b: number) => a <= b, '>': (a: number, b: number) => a > b, '>=': (a: number, b: number) => a >= b, '==': (a: number, b: number) => a === b, '!=': (a: number, b: number) => a !== b } as const;
type Cmp = keyof typeof CMP;

export interface Threshold {
  expr: string;
  metric: string;
  selector: string | undefined;
  cmp: Cmp;
  value: number;
}

type Metric = (r: RunResult, sel: string | undefined) => number | null;

const ops = (r: RunResult, sel: string | undefined) => Object.entries(r.operations).filter(([k]) => sel === undefined || k === sel).map(([, v]) => v);
const pct = (p: number): Metric => (r, sel) => {
  const list = ops(r, sel).map((o) => o.responseMs);
  const h = mergeEncoded(list);
  return h.count ? (p === 100 ? h.summary.max : decode(h).getValueAtPercentile(p)) : null;
};
const sum = (f: (o: RunResult['operations'][string]) => number): Metric => (r, sel) => ops(r, sel).reduce((n, o) => n + f(o), 0);
const ratio = (f: (o: RunResult['operations'][string]) => number): Metric => (r, sel) => {
  const all = ops(r, sel);
  const total = all.reduce((n, o) => n + o.requests, 0);
  return total ? all.reduce((n, o) => n + f(o), 0) / total : null;
};
const non2xx = (o: RunResult['operations'][string]) => Object.entries(o.byStatus).reduce((n, [s, c]) => (s.startsWith('2') ? n : n + c), 0);
const job = (...statuses: string[]): Metric => (r) => statuses.reduce((n, s) => n + (r.jobs.finalStatus[s] ?? 0), 0);

export const METRICS: Readonly<Record<string, Metric>> = {
  p50_ms: pct(50), p90_ms: pct(90), p95_ms: pct(95), p99_ms: pct(99), max_ms: pct(100),
  mean_ms: (r, sel) => { const h = mergeEncoded(ops(r, sel).map((o) => o.responseMs)); return h.count ? h.summary.mean : null; },
  requests: sum((o) => o.requests),
  limited: sum((o) => o.byStatus['429'] ?? 0),
  limited_rate: ratio((o) => o.byStatus['429'] ?? 0),
  error_rate: ratio(non2xx),
  client_timeouts: sum((o) => o.clientTimeouts),
  jobs_accepted: (r) => r.jobs.accepted,
  jobs_completed: job('COMPLETED'),
  jobs_failed: job('FAILED', 'TIMED_OUT'),
  jobs_cancelled: job('CANCELLED'),
  jobs_purged: (r) => r.jobs.purged ?? 0,
  queue_delay_p95_ms: (r) => (r.jobs.queueDelayMs.count ? r.jobs.queueDelayMs.summary.p95 : null),
  queue_delay_p99_ms: (r) => (r.jobs.queueDelayMs.count ? r.jobs.queueDelayMs.summary.p99 : null),
  expired_seen: (r) => r.jobs.retentionExpiriesSeen,
  webhook_failures: (r) => r.webhooks.failedAttempts,
  webhooks_lost: (r) => r.webhooks.gaveUp,
  late_arrivals: (r) => r.arrivals.late,
  dropped_arrivals: (r) => r.arrivals.dropped,
};

const RE = /^\s*([a-z0-9_]+)\s*(?:\{\s*([A-Za-z0-9_.-]+)\s*\})?\s*(<=|>=|==|!=|<|>)\s*(-?\d+(?:\.\d+)?(?:e-?\d+)?)\s*$/;

/** Parses one threshold; a string error names what is wrong. */
export function parseThreshold(expr: string): Threshold | string {
  const m = RE.exec(expr);
  if (!m) return 'expected "metric{operation} <op> number", e.g. "p99_ms{run} < 2000"';
  const [, metric, selector, cmp, value] = m;
  if (!METRICS[metric!]) return `unknown metric "${metric}"; known: ${Object.keys(METRICS).join(', ')}`;
  return { expr: expr.trim(), metric: metric!, selector, cmp: cmp as Cmp, value: Number(value) };
}

/** Evaluates thresholds; a metric with no data fails (nothing was measured to pass). */
export function evaluateThresholds(r: RunResult, exprs: readonly string[]): ThresholdResult[] {
  return exprs.map((e) => {
    const t = parseThreshold(e);
    if (typeof t === 'string') return { expr: e, value: null, ok: false };
    const v = METRICS[t.metric]!(r, t.selector);
    return { expr: t.expr, value: v === null ? null : Math.round(v * 1e6) / 1e6, ok: v !== null && CMP[t.cmp](v, t.value) };
  });
}
