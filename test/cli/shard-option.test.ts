/**
 * Which shard a process is: `--shard I/N`, or `--shards N` / LOADLAB_SHARDS with
 * JOB_COMPLETION_INDEX; every bad combination is a usage error (exit 2) naming the flag or variable.
 */
import { describe, expect, test } from 'vitest';
import { EXIT } from '../../src/cli/exit-codes.js';
import { shardOf } from '../../src/cli/shard-option.js';

describe('shardOf', () => {
  test('--shard I/N', () => {
    expect(shardOf({ shard: '2/4' }, {})).toMatchObject({ index: 2, count: 4 });
    expect(shardOf({ shard: '0/1' }, {})).toMatchObject({ index: 0, count: 1 });
  });
  test('no sharding asked: JOB_COMPLETION_INDEX alone does not shard', () => {
    expect(shardOf({}, {})).toBeUndefined();
    expect(shardOf({}, { JOB_COMPLETION_INDEX: '3' })).toBeUndefined();
  });
  test('--shards N or LOADLAB_SHARDS with JOB_COMPLETION_INDEX; the flag wins over the variable', () => {
    expect(shardOf({ shards: '4' }, { JOB_COMPLETION_INDEX: '3' })).toMatchObject({ index: 3, count: 4 });
    expect(shardOf({}, { LOADLAB_SHARDS: '5', JOB_COMPLETION_INDEX: '0' })).toMatchObject({ index: 0, count: 5 });
    expect(shardOf({ shards: '2' }, { LOADLAB_SHARDS: '5', JOB_COMPLETION_INDEX: '1' })).toMatchObject({ index: 1, count: 2 });
    // --shard wins over the environment of an Indexed Job.
    expect(shardOf({ shard: '1/3' }, { LOADLAB_SHARDS: '5', JOB_COMPLETION_INDEX: '4' })).toMatchObject({ index: 1, count: 3 });
  });
  test.each([
    [{ shard: '4/4' }, {}, /--shard 4\/4: the index I must be below the count N \(0 to 3\)/],
    [{ shard: '0/0' }, {}, /--shard 0\/0: the shard count N must be a whole number >= 1/],
    [{ shard: '1.5/4' }, {}, /--shard: "1.5\/4" is not I\/N/],
    [{ shard: '-1/4' }, {}, /--shard: "-1\/4" is not I\/N/],
    [{ shard: '3' }, {}, /--shard: "3" is not I\/N/],
    [{ shard: '0/2', shards: '2' }, {}, /--shard and --shards: give one/],
    [{ shards: '0' }, { JOB_COMPLETION_INDEX: '0' }, /--shards: the shard count, a whole number >= 1, got "0"/],
    [{ shards: 'four' }, { JOB_COMPLETION_INDEX: '0' }, /--shards: the shard count, a whole number >= 1, got "four"/],
    [{}, { LOADLAB_SHARDS: '2.5', JOB_COMPLETION_INDEX: '0' }, /LOADLAB_SHARDS: the shard count, a whole number >= 1, got "2.5"/],
    [{ shards: '4' }, {}, /--shards 4: needs JOB_COMPLETION_INDEX, this shard's index from 0 to 3/],
    [{ shards: '4' }, { JOB_COMPLETION_INDEX: '4' }, /JOB_COMPLETION_INDEX: a whole number from 0 to 3 \(--shards 4\), got "4"/],
    [{}, { LOADLAB_SHARDS: '4', JOB_COMPLETION_INDEX: 'x' }, /JOB_COMPLETION_INDEX: a whole number from 0 to 3 \(LOADLAB_SHARDS 4\), got "x"/],
  ])('%j with env %j: usage error', (args, env, msg) => {
    let err: unknown;
    try {
      shardOf(args, env);
    } catch (e) {
      err = e;
    }
    expect(err).toMatchObject({ exitCode: EXIT.USAGE });
    expect((err as Error).message).toMatch(msg);
  });
});
