/**
 * `loadlab merge` for run results: shards of one scenario run → one RunResult, as if one machine
 * had sent all their traffic. Pure: the same inputs, in any order or grouping, give the same
 * result, byte for byte once rendered (render-json.ts): inputs are sorted by shard indices,
 * every key set is sorted, histograms are re-encoded canonically and nothing reads the clock.
 *
 * Exact: counters (sums), HDR histograms whole-run and per window (sums of histograms).
 * Approximate: headroom peaks (headroom.ts), `timeline.inFlightMax` (upper bound), the endpoint
 * view (one shard's samples per window), and the placement of each shard's windows on the wall
 * clock (to the nearest window: alignment.ts). One shard's own: `healthSampling` and `observed`
 * (sampling-shard.ts). docs/merge.md says the same for users.
 */
import type { RunResult } from '../run-result.js';
import { evaluateThresholds } from '../thresholds.js';
import { windowShifts } from './alignment.js';
import { checkInputs } from './check-inputs.js';
import { mergeArrivals, mergeFlows, mergeJobs, mergeOperations, mergeStreams, mergeWebhooks } from './counters.js';
import { mergeHeadroom } from './headroom.js';
import type { MergeInput } from './merge-input.js';
import { mergeAborted, mergeInterrupted, mergedTime0, mergeUnreachable, mergeWallClock } from './run-state.js';
import type { ShardInfo } from './shard-info.js';
import { mergeSampling } from './sampling-shard.js';
import { mergeTimeline } from './timeline.js';
import { mergeWindows } from './windows.js';
import { engineSummaryOf } from '../engine-summary.js';

export { MergeError } from './merge-error.js';
export type { MergeInput } from './merge-input.js';

/** Throws a MergeError (naming two inputs and the field) when the inputs are not shards of one run. */
export function mergeRuns(inputs: readonly MergeInput[]): RunResult & { shard: ShardInfo } {
  const checked = checkInputs(inputs);
  const rs = checked.map((x) => x.result);
  const first = rs[0]!;
  const tlShifts = windowShifts(checked, first.timeline.windowMs);
  const winShifts = windowShifts(checked, first.windows!.windowMs);
  const offsets = tlShifts.map((s) => s * first.timeline.windowMs);
  const marked = rs.map((r, i) => ({ r, offsetMs: offsets[i]! }));
  const t0 = mergedTime0(checked);
  const windows = mergeWindows(
    rs.map((r) => r.windows!),
    winShifts,
  );
  const sampling = mergeSampling(marked);
  const unreachable = mergeUnreachable(rs);
  const aborted = mergeAborted(marked);
  const interrupted = mergeInterrupted(marked);
  const shard: ShardInfo = {
    count: checked[0]!.shard.count,
    indices: checked.flatMap((x) => x.shard.indices).sort((a, b) => a - b),
    ...(t0.common ? { startAtMs: t0.time0Ms } : {}),
  };
  const merged: RunResult & { shard: ShardInfo } = {
    version: 3,
    kind: 'run',
    scenario: first.scenario,
    // Causes count as reported only when every shard's target reported them.
    target: { ...first.target, causes: rs.every((r) => r.target.causes === 'reported') ? 'reported' : 'inferred' },
    shard,
    elapsedMs: Math.max(...rs.map((r, i) => r.elapsedMs + offsets[i]!)),
    operations: mergeOperations(rs),
    flows: mergeFlows(rs),
    jobs: mergeJobs(rs.map((r) => r.jobs)),
    webhooks: mergeWebhooks(rs.map((r) => r.webhooks)),
    streams: mergeStreams(rs.map((r) => r.streams)),
    arrivals: mergeArrivals(rs.map((r) => r.arrivals)),
    headroom: mergeHeadroom(
      rs.map((r) => r.headroom),
      windows,
    ),
    timeline: mergeTimeline(
      rs.map((r) => r.timeline),
      tlShifts,
    ),
    thresholds: [],
    ...(unreachable ? { unreachable } : {}),
    windows,
    ...(sampling.healthSampling ? { healthSampling: sampling.healthSampling } : {}),
    ...(aborted ? { aborted } : {}),
    ...(interrupted ? { interrupted } : {}),
    ...(sampling.observed ? { observed: sampling.observed } : {}),
    wallClock: mergeWallClock(checked, t0),
  };
  const engine = engineSummaryOf(windows.endpoint, windows.windowMs, merged.elapsedMs);
  if (engine) merged.engine = engine;
  merged.thresholds = evaluateThresholds(
    merged,
    first.thresholds.map((t) => t.expr),
  );
  return merged;
}
