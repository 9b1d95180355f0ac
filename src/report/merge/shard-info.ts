/**
 * The `shard` field of a RunResult (issue 22 contract): which of N deterministic slices of one
 * scenario a result holds. A single shard holds `[I]`; a merged result the sorted union. Absent:
 * a whole, unsharded run.
 */
import type { RunResult } from '../run-result.js';

export interface ShardInfo {
  /** N: the shards the scenario was split into. */
  count: number;
  /** The shard indices (0 ≤ I < N) this result holds, ascending. */
  indices: number[];
  /**
   * Epoch ms of the result's time 0: the common `--start-at` instant of the shards; for a merged
   * result, the earliest time 0 of its inputs.
   */
  startAtMs?: number;
}

/** A run result that may carry a `shard` field. */
export type ShardedRunResult = RunResult & { shard?: ShardInfo };

export function shardOf(r: RunResult): ShardInfo | undefined {
  return (r as ShardedRunResult).shard;
}

/** Orders results by their shard indices (lexicographic; inputs never overlap). */
export function byIndices(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return a.length - b.length;
}
