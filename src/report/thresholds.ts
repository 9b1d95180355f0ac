/**
 * Thresholds: `metric{selector} <op> number [every 60s]` (grammar: threshold-parse.ts; metrics:
 * threshold-metrics.ts; checks before the run: threshold-check.ts). Evaluated on a RunResult, so
 * a stored report can be re-checked. A metric with no data fails (nothing was measured to pass).
 */
import type { RunResult, ThresholdResult } from './run-result.js';
import { METRICS, type ThresholdInput } from './threshold-metrics.js';
import { CMP, parseThreshold, type Threshold } from './threshold-parse.js';

export { parseThreshold, type Threshold } from './threshold-parse.js';
export { METRICS } from './threshold-metrics.js';

const round = (v: number) => Math.round(v * 1e6) / 1e6;

/** Evaluates thresholds on a result (a threshold that does not parse fails). */
export function evaluateThresholds(r: RunResult, exprs: readonly string[]): ThresholdResult[] {
  return exprs.map((e) => {
    const t = parseThreshold(e);
    if (typeof t === 'string' || !METRICS[t.metric])
      return { expr: e, value: null, ok: false, reason: typeof t === 'string' ? t : `unknown metric "${t.metric}"` };
    return evaluateThreshold(r, t);
  });
}

/**
 * One threshold. An `every` threshold is checked window by window, windows `fromGroup` on (in
 * units of `everyMs`, aligned to the run's start), up to the last one the result holds.
 */
export function evaluateThreshold(r: ThresholdInput, t: Threshold, fromGroup = 0): ThresholdResult {
  const def = METRICS[t.metric]!;
  if (t.everyMs === undefined) {
    const v = def.value(r, t.selection);
    return { expr: t.expr, value: v === null ? null : round(v), ok: v !== null && CMP[t.cmp](v, t.value) };
  }
  const w = r.windows;
  const fail = (reason: string): ThresholdResult => ({ expr: t.expr, value: null, ok: false, reason });
  if (!w) return fail(`report version ${r.version} has no per-window histograms: re-run to check "every" thresholds`);
  if (!def.window) return fail(`metric "${t.metric}" cannot be checked per window`);
  if (t.everyMs % w.windowMs !== 0) return fail(`the report stores ${w.windowMs / 1000} s windows; "every" must be a multiple`);
  const k = t.everyMs / w.windowMs;
  const stored = Math.max(0, ...Object.values(w.responseMs).map((a) => a.length), ...Object.values(w.flows).map((f) => f.turnaroundMs.length));
  let worst: number | null = null;
  for (let g = fromGroup; g * k < stored; g++) {
    const v = def.window(r, t.selection, g * k, (g + 1) * k);
    if (v === null) continue;
    if (!CMP[t.cmp](v, t.value))
      return { expr: t.expr, value: round(v), ok: false, window: { fromMs: g * t.everyMs, toMs: (g + 1) * t.everyMs, value: round(v) } };
    if (worst === null || (t.cmp[0] === '<' ? v > worst : t.cmp[0] === '>' ? v < worst : true)) worst = v;
  }
  return worst === null ? fail('no data in any window') : { expr: t.expr, value: round(worst), ok: true };
}
