/**
 * One input of a merge: a shard's (or a merged) RunResult and the name the user gave it (its
 * directory), which every error message quotes.
 */
import type { RunResult } from '../run-result.js';
import type { ShardInfo } from './shard-info.js';

export interface MergeInput {
  /** How messages name this input (e.g. `reports/shard-0`). */
  name: string;
  result: RunResult;
}

/** An input that passed the checks: its shard field and the epoch ms of its time 0. */
export interface CheckedInput extends MergeInput {
  shard: ShardInfo;
  time0Ms: number;
}
