/**
 * The run-level markers of a merged run — interrupted, aborted, unreachable — and its wall clock.
 * A marker on any shard carries over: a merged run that lost a shard to Ctrl-C or to an
 * unreachable target did not measure the whole scenario (verdict INVALID), and one a threshold
 * aborted ended early. Times are on the merged axis (`offsetMs`: the input's shift in ms).
 */
import type { RunResult, Unreachable } from '../run-result.js';
import type { CheckedInput } from './merge-input.js';

type Marked = { r: RunResult; offsetMs: number };

/** The earliest interruption on the merged axis. */
export function mergeInterrupted(list: readonly Marked[]): RunResult['interrupted'] {
  const at = list.flatMap(({ r, offsetMs }) => (r.interrupted ? [r.interrupted.atMs + offsetMs] : []));
  return at.length ? { atMs: Math.min(...at) } : undefined;
}

/** The earliest abort on the merged axis (ties: the threshold first in sort order). */
export function mergeAborted(list: readonly Marked[]): RunResult['aborted'] {
  const all = list.flatMap(({ r, offsetMs }) => (r.aborted ? [{ threshold: r.aborted.threshold, atMs: r.aborted.atMs + offsetMs }] : []));
  all.sort((a, b) => a.atMs - b.atMs || (a.threshold < b.threshold ? -1 : a.threshold > b.threshold ? 1 : 0));
  return all[0];
}

/**
 * Answers added; the status and error of the first shard (by index) that recorded one: per-status
 * counts are not stored, and this choice does not depend on how the inputs are grouped.
 */
export function mergeUnreachable(list: readonly RunResult[]): Unreachable | undefined {
  const marked = list.flatMap((r) => r.unreachable ?? []);
  if (!marked.length) return undefined;
  const error = marked.find((u) => u.error !== undefined)?.error;
  return {
    status: marked[0]!.status,
    answers: marked.reduce((n, u) => n + u.answers, 0),
    stoppedEarly: marked.some((u) => u.stoppedEarly),
    ...(error !== undefined ? { error } : {}),
  };
}

/**
 * Wall-clock facts that do not depend on when the merge ran: the earliest shard's start, the
 * longest shard's wall time, and metrics.om's time 0 at the merged run's time 0.
 */
export function mergeWallClock(inputs: readonly CheckedInput[], time0Ms: number): NonNullable<RunResult['wallClock']> {
  const starts = inputs.map((x) => x.result.wallClock?.startedAt).filter((s): s is string => typeof s === 'string' && Number.isFinite(Date.parse(s)));
  const startedAt = new Date(starts.length ? Math.min(...starts.map((s) => Date.parse(s))) : time0Ms).toISOString();
  return {
    startedAt,
    wallMs: Math.max(0, ...inputs.map((x) => x.result.wallClock?.wallMs ?? 0)),
    metricsStartMs: time0Ms,
  };
}
