/**
 * The second judgement of a run with late arrivals (verdict.ts): each threshold over times
 * measured from the intended send (`METRICS[…].fromIntended`: response times, turnaround) is
 * judged again by the same threshold code on a view of the result whose times run from the
 * actual send instead (the recorder builds it: load/record/send-times.ts). The result keeps both
 * judgements (`ThresholdResult.fromSend`), so the verdict stays a function of report.json.
 */
import type { ThresholdResult } from './run-result.js';
import { METRICS, type ThresholdInput } from './threshold-metrics.js';
import { parseThreshold } from './threshold-parse.js';
import { evaluateThreshold } from './thresholds.js';

/** The threshold's metric counts from the intended send, so a late send adds to it. */
export function measuredFromIntended(expr: string): boolean {
  const t = parseThreshold(expr);
  return typeof t !== 'string' && METRICS[t.metric]?.fromIntended === true;
}

/** `results`, each threshold measured from the intended send with `fromSend`: judged on `fromSendView`. */
export function judgeFromSend(results: readonly ThresholdResult[], fromSendView: ThresholdInput): ThresholdResult[] {
  return results.map((res) => {
    const t = parseThreshold(res.expr);
    if (typeof t === 'string' || METRICS[t.metric]?.fromIntended !== true) return res;
    const again = evaluateThreshold(fromSendView, t);
    return { ...res, fromSend: { value: again.value, ok: again.ok } };
  });
}
