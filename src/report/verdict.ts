/**
 * The verdict of a run, the first thing every report says (terminal summary, report.md, JUnit,
 * the GitHub step summary). Pure: verdict(result), so a stored report.json gives the same one.
 *
 * - INVALID: the run measured nothing trustworthy — the user interrupted it (Ctrl-C: its figures
 *   cover only the time before), the target was unreachable (every answer 401,
 *   403, 404 or a transport error), or the load generator fell behind: it dropped more than 1 %
 *   of arrivals (at least 3), or it sent arrivals late and that decided a latency threshold
 *   (lateness.ts; "late" is the scenario's `openModel.lateAfterMs`, 10 ms by default).
 * - FAIL: a threshold failed (each listed with its measured value), or one ended the run early
 *   (`abortOnFail`).
 * - PASS: neither. 5xx answers and transport errors never fail a run by themselves, but the
 *   verdict names them: `PASS (but 12 × 503, 3 transport errors)`.
 *
 * Late arrivals that decided nothing leave the verdict as it is, with a warning line after it.
 */
import { groupDigits } from '../lib/group-digits.js';
import { lateness } from './lateness.js';
import type { RunResult, Unreachable } from './run-result.js';

export { BEHIND_MIN, BEHIND_SHARE } from './lateness.js';

export type VerdictStatus = 'PASS' | 'FAIL' | 'INVALID';

export interface Verdict {
  status: VerdictStatus;
  /** Why INVALID: 'interrupted' (Ctrl-C), 'unreachable' or 'behind' (the generator fell behind). */
  invalid?: 'interrupted' | 'unreachable' | 'behind';
  /** One line: `PASS`, `FAIL: …`, `INVALID: …`, with `(but …)` when 5xx or transport errors came. */
  line: string;
  /** `warning: 12 of 1 200 arrivals late, …`: arrivals were sent late, and the verdict stands. */
  warning?: string;
  /** The cause in one line, for an INVALID run (what stderr says). */
  cause?: string;
  /** `throttled by: rate 3 088 on /run, queue 0, concurrency 0` (429s by cause). */
  throttled: string;
  /** `limits above 80 %: …` or `limits above 80 %: none` (from the headroom section). */
  limits: string;
}

/** A limit used above this share is listed. */
export const HOT_SHARE = 0.8;

/** 12345 → "12 345": rounded to a whole number, grouped by thousands (lib/group-digits.ts). */
export const group = (n: number): string => groupDigits(n);

export function verdict(r: RunResult): Verdict {
  const but = troubles(r);
  const suffix = but ? ` (but ${but})` : '';
  const base = { throttled: throttledBy(r), limits: hotLimits(r) };
  if (r.interrupted) {
    const cause = interruptedCause(r.interrupted.atMs);
    return { ...base, status: 'INVALID', invalid: 'interrupted', cause, line: `INVALID: ${cause}` };
  }
  const un = unreachable(r);
  if (un) {
    const cause = unreachableCause(un);
    return { ...base, status: 'INVALID', invalid: 'unreachable', cause, line: `INVALID: ${cause}` };
  }
  const late = lateness(r);
  if (late.cause) return { ...base, status: 'INVALID', invalid: 'behind', cause: late.cause, line: `INVALID: ${late.cause}${suffix}` };
  const warned = late.warning ? { ...base, warning: late.warning } : base;
  const failed = r.thresholds.filter((t) => !t.ok);
  if (failed.length || r.aborted) {
    const aborted = r.aborted ? [`run aborted at ${group(r.aborted.atMs / 1000)} s by ${r.aborted.threshold}`] : [];
    const list = [...aborted, ...failed.map((t) => `${t.expr} (measured ${t.value === null ? 'no data' : t.value})`)].join('; ');
    return { ...warned, status: 'FAIL', line: `FAIL: ${list}${suffix}` };
  }
  return { ...warned, status: 'PASS', line: `PASS${suffix}` };
}

/** The verdict line, the warning on late arrivals when there is one, and the two lines after, as the terminal and report.md open. */
export function verdictLines(v: Verdict): string[] {
  return [v.line, ...(v.warning ? [v.warning] : []), v.throttled, v.limits];
}

/**
 * What the run saw of an unreachable target: the runner's record, or (an older report, a blast)
 * derived from the answers — at least one, and every one 401, 403, 404 or a transport error.
 */
export function unreachable(r: RunResult): Unreachable | undefined {
  if (r.unreachable) return r.unreachable;
  // The embedded simulator is always there (its endpoint is the scenario's).
  if (r.target.kind === 'in-process') return undefined;
  const counts = new Map<number, number>();
  let answers = 0;
  for (const o of Object.values(r.operations)) {
    for (const [s, n] of Object.entries(o.byStatus)) {
      const status = Number(s);
      if (status === 0) continue;
      if (status !== 401 && status !== 403 && status !== 404) return undefined;
      counts.set(status, (counts.get(status) ?? 0) + n);
      answers += n;
    }
    if (o.transportErrors) counts.set(0, (counts.get(0) ?? 0) + o.transportErrors);
    answers += o.transportErrors;
  }
  if (answers === 0) return undefined;
  const [status] = [...counts].sort((a, b) => b[1] - a[1])[0]!;
  return { status, answers, stoppedEarly: false };
}

/** `interrupted by the user at t=1 234 s; …`: the cause of a run stopped by Ctrl-C. */
export function interruptedCause(atMs: number): string {
  return `interrupted by the user at t=${group(Math.floor(atMs / 1000))} s; the figures cover the run up to then`;
}

/** The one-line cause of an unreachable target, with what to check. */
export function unreachableCause(u: Unreachable): string {
  switch (u.status) {
    case 401:
      return 'every request answered 401: check --api-key or RUNPOD_API_KEY';
    case 403:
      return 'every request answered 403: check --api-key or RUNPOD_API_KEY (the key may not have access to this endpoint)';
    case 404:
      return 'every request answered 404: check --endpoint / the endpoint id (and that --target ends in /v2)';
    default:
      return `the target URL is unreachable: ${u.error ?? 'transport error'}`;
  }
}

/** `12 × 503, 3 transport errors`: 5xx answers by status and transport errors, or undefined. */
function troubles(r: RunResult): string | undefined {
  const by5xx = new Map<string, number>();
  let transport = 0;
  for (const o of Object.values(r.operations)) {
    for (const [s, n] of Object.entries(o.byStatus)) if (s.length === 3 && s.startsWith('5')) by5xx.set(s, (by5xx.get(s) ?? 0) + n);
    transport += o.transportErrors;
  }
  const parts = [...by5xx].sort((a, b) => (a[0] < b[0] ? -1 : 1)).map(([s, n]) => `${group(n)} × ${s}`);
  if (transport) parts.push(`${group(transport)} transport error${transport === 1 ? '' : 's'}`);
  return parts.length ? parts.join(', ') : undefined;
}

/** 429s by cause; the operations that got rate-limited are named. */
function throttledBy(r: RunResult): string {
  const sum = { rate: 0, queue: 0, concurrency: 0, unknown: 0 };
  const rateOps: string[] = [];
  for (const [op, o] of Object.entries(r.operations)) {
    for (const k of Object.keys(sum) as (keyof typeof sum)[]) sum[k] += o.limited[k];
    if (o.limited.rate) rateOps.push(`/${op}`);
  }
  const rate = `rate ${group(sum.rate)}${rateOps.length ? ` on ${rateOps.join(', ')}` : ''}`;
  return `throttled by: ${rate}, queue ${group(sum.queue)}, concurrency ${group(sum.concurrency)}${sum.unknown ? `, unknown ${group(sum.unknown)}` : ''}`;
}

/** Every limit whose peak use was above 80 %, as `name 92 % (920 of 1 000)`. */
function hotLimits(r: RunResult): string {
  const h = r.headroom;
  const hot: string[] = [];
  const check = (name: string, peak: number | null, limit: number | null) => {
    if (peak === null || !limit || peak / limit <= HOT_SHARE) return;
    hot.push(`${name} ${Math.round((100 * peak) / limit)} % (${group(peak)} of ${group(limit)})`);
  };
  for (const o of h.operations) {
    check(`/${o.operation} rate per 10 s`, o.peakPer10s, o.ratePer10s);
    check(`/${o.operation} concurrency`, o.peakInFlight, o.concurrency);
  }
  check('queue depth', h.peakQueueDepth, h.queueThrottleAt);
  check('workers', h.peakRunningWorkers, h.workersMax);
  return `limits above 80 %: ${hot.length ? hot.join(', ') : 'none'}`;
}
