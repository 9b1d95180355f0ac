/**
 * What arrivals the load generator sent late or dropped do to the verdict (verdict.ts). Latency
 * is measured from the intended send, so a late send counts against the target; the run is
 * INVALID for it only when it could have changed the verdict:
 *
 * - Dropped arrivals (never sent: no latency at all): more than 1 % of arrivals, and at least 3.
 * - Late arrivals: every threshold over times from the intended send (response time, turnaround)
 *   was judged a second time from the actual send (`ThresholdResult.fromSend`, from-send.ts); one
 *   judged differently makes the run INVALID, naming it and the lateness. Otherwise the verdict
 *   stands, with one warning line: how many arrivals were late and the send lag's p99 and max.
 * - A result without that second judgement for such a threshold (an older report, a merged one)
 *   keeps the first rule: more than 1 % of arrivals late or dropped, and at least 3.
 */
import { groupDigits } from '../lib/group-digits.js';
import { measuredFromIntended } from './from-send.js';
import type { RunResult, ThresholdResult } from './run-result.js';

/** Share of arrivals dropped (or, without the second judgement, late or dropped) above which the run is INVALID. */
export const BEHIND_SHARE = 0.01;
/**
 * ... and at least this many: one pause (a GC, the first JIT) in a smoke run of a few arrivals
 * is not a generator that fell behind, though it is 20 % of five.
 */
export const BEHIND_MIN = 3;

/** `cause`: the run is INVALID for it; `warning`: the line that says the verdict stands. Neither: nothing was late. */
export interface Lateness {
  cause?: string;
  warning?: string;
}

const group = (n: number): string => groupDigits(n);
const tooMany = (n: number, of: number): boolean => of > 0 && n >= BEHIND_MIN && n / of > BEHIND_SHARE;
const pctOf = (n: number, of: number): string => ((100 * n) / of).toFixed(1);
const measured = (v: number | null): string => (v === null ? 'no data' : String(v));

export function lateness(r: RunResult): Lateness {
  const a = r.arrivals;
  if (tooMany(a.dropped, a.intended)) {
    return {
      cause: `the load generator fell behind: ${pctOf(a.dropped, a.intended)} % of arrivals dropped (${group(a.dropped)} dropped, ${group(a.late)} late of ${group(a.intended)}); latency figures are not trustworthy`,
    };
  }
  if (a.late === 0) return {};
  const lag = `${group(a.late)} of ${group(a.intended)} arrivals late, send lag p99 ${group(a.sendLagMs.summary.p99)} ms, max ${group(a.sendLagMs.summary.max)} ms`;
  const timed = r.thresholds.filter((t) => measuredFromIntended(t.expr));
  const decided = timed.filter((t): t is ThresholdResult & Required<Pick<ThresholdResult, 'fromSend'>> => t.fromSend !== undefined && t.fromSend.ok !== t.ok);
  if (decided.length) {
    const t = decided[0]!;
    const more = decided.length > 1 ? ` and ${decided.length - 1} more threshold${decided.length > 2 ? 's' : ''}` : '';
    return {
      cause: `the load generator fell behind, and that decides ${t.expr} (measured ${measured(t.value)} from the intended send, ${measured(t.fromSend.value)} from the actual send)${more}: ${lag}`,
    };
  }
  const unjudged = timed.some((t) => t.fromSend === undefined);
  if (unjudged && tooMany(a.late + a.dropped, a.intended)) {
    return {
      cause: `the load generator fell behind: ${pctOf(a.late + a.dropped, a.intended)} % of arrivals late or dropped (${group(a.late)} late, ${group(a.dropped)} dropped of ${group(a.intended)}); latency figures are not trustworthy`,
    };
  }
  const why = !timed.length
    ? 'no threshold is on response time or turnaround'
    : unjudged
      ? 'within the 1 % allowed'
      : 'every response-time and turnaround threshold judges the same from the actual send';
  return { warning: `warning: ${lag}; ${why}` };
}
