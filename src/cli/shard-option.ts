/**
 * Which shard this process is, for `loadlab run` and `loadlab plan`: `--shard I/N`, or the count
 * from `--shards N` (else env `LOADLAB_SHARDS`) with the index from env `JOB_COMPLETION_INDEX`
 * (a Kubernetes Indexed Job sets it in every pod). Flags win over the environment. Without
 * `--shard`, `--shards` or `LOADLAB_SHARDS` the process is not sharded, whatever
 * `JOB_COMPLETION_INDEX` says. A bad value is a CliError (exit 2) naming the flag or variable.
 */
import type { Argv } from 'yargs';
import { CliError, EXIT } from './exit-codes.js';

/** Shard `index` of `count` (0 <= index < count). */
export interface ShardChoice {
  index: number;
  count: number;
  /** What chose it, for messages: `--shard` or `--shards` / `LOADLAB_SHARDS` with `JOB_COMPLETION_INDEX`. */
  from: string;
}

export interface ShardArgs {
  shard?: string;
  shards?: string;
}

/** The variables read: `LOADLAB_SHARDS` and `JOB_COMPLETION_INDEX`. */
export type ShardEnv = Readonly<Record<string, string | undefined>>;

const bad = (m: string) => new CliError(m, EXIT.USAGE);
const WHOLE = /^\d+$/;

/** This process's shard, or undefined when it is not sharded. */
export function shardOf(a: ShardArgs, env: ShardEnv = process.env): ShardChoice | undefined {
  if (a.shard !== undefined && a.shards !== undefined) {
    throw bad('--shard and --shards: give one, --shard I/N or --shards N with JOB_COMPLETION_INDEX=I');
  }
  if (a.shard !== undefined) return parseShardFlag(String(a.shard));
  const countFrom = a.shards !== undefined ? '--shards' : env.LOADLAB_SHARDS !== undefined ? 'LOADLAB_SHARDS' : undefined;
  if (countFrom === undefined) return undefined;
  const count = shardCount(countFrom, String(a.shards ?? env.LOADLAB_SHARDS));
  const idx = env.JOB_COMPLETION_INDEX;
  if (idx === undefined || idx.trim() === '') {
    throw bad(
      `${countFrom} ${count}: needs JOB_COMPLETION_INDEX, this shard's index from 0 to ${count - 1} (a Kubernetes Indexed Job sets it), or give --shard I/${count} instead`,
    );
  }
  const i = idx.trim();
  if (!WHOLE.test(i) || Number(i) >= count) {
    throw bad(`JOB_COMPLETION_INDEX: a whole number from 0 to ${count - 1} (${countFrom} ${count}), got "${idx}"`);
  }
  return { index: Number(i), count, from: `${countFrom} with JOB_COMPLETION_INDEX` };
}

/** `I/N` with whole numbers, 0 <= I < N. */
export function parseShardFlag(s: string): ShardChoice {
  const m = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(s);
  if (!m) throw bad(`--shard: "${s}" is not I/N (this shard's index I and the shard count N, whole numbers with 0 <= I < N, e.g. 0/4)`);
  const index = Number(m[1]);
  const count = Number(m[2]);
  if (!Number.isSafeInteger(count) || count < 1) throw bad(`--shard ${s}: the shard count N must be a whole number >= 1`);
  if (!Number.isSafeInteger(index) || index >= count) throw bad(`--shard ${s}: the index I must be below the count N (0 to ${count - 1})`);
  return { index, count, from: '--shard' };
}

function shardCount(name: string, v: string): number {
  const t = v.trim();
  if (!WHOLE.test(t) || !Number.isSafeInteger(Number(t)) || Number(t) < 1) throw bad(`${name}: the shard count, a whole number >= 1, got "${v}"`);
  return Number(t);
}

/**
 * Adds --shard and --shards to a command (strings: shardOf checks them, not yargs). `takes` says
 * what shard I runs, e.g. "the arrivals k of each flow with k mod N = I".
 */
export function shardOptions<T>(y: Argv<T>, takes: string): Argv<T & ShardArgs> {
  return y.option('shard', { type: 'string', describe: `Be shard I of N (I/N, 0 <= I < N): run ${takes}` }).option('shards', {
    type: 'string',
    describe: 'Shard count N, the index coming from env JOB_COMPLETION_INDEX (a Kubernetes Indexed Job); also env LOADLAB_SHARDS',
  });
}
