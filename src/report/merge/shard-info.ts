/**
 * The `shard` field of a RunResult (run-result.ts ShardSection): which of N deterministic slices
 * of one scenario a result holds. A single shard holds `[I]`; a merged result the sorted union,
 * with `startAtMs` when every shard had that same `--start-at` instant.
 */
import type { RunResult, ShardSection } from '../run-result.js';

export type ShardInfo = ShardSection;

export function shardOf(r: RunResult): ShardInfo | undefined {
  return r.shard;
}

/** Orders results by their shard indices (lexicographic; inputs never overlap). */
export function byIndices(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return a.length - b.length;
}
