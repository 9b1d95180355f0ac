/**
 * The per-window counter columns (RunResult.timeline) on the merged wall-time axis: counters add;
 * `queueDepthMax` is the deepest queue any shard saw of the one endpoint they share (a maximum of
 * maxima, exact as far as the shards observed); `inFlightMax` adds the shards' maxima, an upper
 * bound of the merged client's (the shards' peaks need not coincide within a window). -1: no
 * shard observed anything in that window.
 */
import type { Timeline } from '../run-result.js';
import { BALANCER_COLUMNS } from '../timeline-columns.js';
import { at, mergedLength } from './alignment.js';

type Column = Exclude<keyof Timeline, 'windowMs'>;

const COUNTERS: readonly Column[] = [
  'requests',
  'responses2xx',
  'limitedRate',
  'limitedConcurrency',
  'limitedQueue',
  'limitedUnknown',
  'clientTimeouts',
  'jobsCompleted',
  'jobsFailed',
  'expiriesSeen',
  'webhookAttempts',
  'webhookFailures',
  'streamChunks',
  'late',
  'dropped',
  ...BALANCER_COLUMNS,
];

export function mergeTimeline(list: readonly Timeline[], shifts: readonly number[]): Timeline {
  const n = mergedLength(
    list.map((t) => t.requests.length),
    shifts,
  );
  const out = { windowMs: list[0]!.windowMs } as Timeline;
  const windows = Array.from({ length: n }, (_, w) => w);
  for (const c of COUNTERS) {
    // webhookAttempts is absent from reports before version 3, the balancer columns from runs of a queue endpoint; the merge keeps a column when any input has it.
    if (list.every((t) => t[c] === undefined)) continue;
    out[c] = windows.map((w) => list.reduce((s, t, i) => s + at(t[c], shifts[i]!, w, 0), 0));
  }
  out.queueDepthMax = windows.map((w) => Math.max(-1, ...list.map((t, i) => at(t.queueDepthMax, shifts[i]!, w, -1))));
  out.inFlightMax = windows.map((w) => {
    const seen = list.map((t, i) => at(t.inFlightMax, shifts[i]!, w, -1)).filter((v) => v >= 0);
    return seen.length ? seen.reduce((a, b) => a + b, 0) : -1;
  });
  return out;
}
