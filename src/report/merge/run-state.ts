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
 * The merged run's time 0 (epoch ms: the earliest input's) and whether it is a common
 * `--start-at` instant of every input (then kept as `shard.startAtMs`).
 */
export function mergedTime0(inputs: readonly CheckedInput[]): { time0Ms: number; common: boolean } {
  const time0Ms = Math.min(...inputs.map((x) => x.time0Ms));
  return { time0Ms, common: inputs.every((x) => x.shard.startAtMs === time0Ms) };
}

/**
 * Wall-clock facts that do not depend on when the merge ran: the start (the earliest shard's
 * `startedAt` when all share a `--start-at` instant; otherwise the merged time 0, which is then the
 * earliest shard's start, so a later merge reads the same time 0 back), the longest shard's wall
 * time, and metrics.om's time 0 at the merged run's time 0.
 */
export function mergeWallClock(inputs: readonly CheckedInput[], t0: { time0Ms: number; common: boolean }): NonNullable<RunResult['wallClock']> {
  const starts = inputs.map((x) => Date.parse(String(x.result.wallClock?.startedAt))).filter(Number.isFinite);
  const startedMs = t0.common && starts.length ? Math.min(...starts) : t0.time0Ms;
  return {
    startedAt: new Date(startedMs).toISOString(),
    wallMs: Math.max(0, ...inputs.map((x) => x.result.wallClock?.wallMs ?? 0)),
    metricsStartMs: t0.time0Ms,
  };
}
