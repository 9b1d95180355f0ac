/**
 * The checks before a merge (issue 22 contract): every input is a shard of a version-3 run, all
 * are shards of the same scenario (name, endpoint, length, seed, thresholds, windows) split the
 * same number of ways, and no shard index appears twice. A failure names both inputs and the field.
 * Returns the inputs sorted by shard indices, the order every later step relies on.
 */
import type { RunResult } from '../run-result.js';
import { MergeError } from './merge-error.js';
import type { CheckedInput, MergeInput } from './merge-input.js';
import { byIndices, shardOf, type ShardInfo } from './shard-info.js';

/** Fields that must be equal in every input: the field path and how to read it. */
const SAME: readonly (readonly [string, (r: RunResult) => unknown])[] = [
  ['scenario.name', (r) => r.scenario.name],
  ['scenario.endpointId', (r) => r.scenario.endpointId],
  ['scenario.durationMs', (r) => r.scenario.durationMs],
  ['scenario.seed', (r) => r.scenario.seed],
  ['shard.count', (r) => shardOf(r)!.count],
  ['timeline.windowMs', (r) => r.timeline.windowMs],
  ['windows.windowMs', (r) => r.windows!.windowMs],
  ['thresholds', (r) => r.thresholds.map((t) => t.expr)],
];

export function checkInputs(inputs: readonly MergeInput[]): CheckedInput[] {
  if (inputs.length === 0) throw new MergeError('nothing to merge: give at least one shard result', 'inputs');
  const checked = inputs.map(checkOne).sort((a, b) => byIndices(a.shard.indices, b.shard.indices));
  const first = checked[0]!;
  for (const x of checked.slice(1)) {
    for (const [field, read] of SAME) {
      const [a, b] = [JSON.stringify(read(first.result)), JSON.stringify(read(x.result))];
      if (a !== b)
        throw new MergeError(
          `${first.name} and ${x.name} differ in ${field} (${a} vs ${b}): only shards of one scenario run, with the same seed and shard count, merge`,
          field,
        );
    }
  }
  checkOverlap(checked);
  return checked;
}

function checkOne(input: MergeInput): CheckedInput {
  const r = input.result;
  const fail = (field: string, why: string) => new MergeError(`${input.name}: ${field}: ${why}`, field);
  if (r.kind !== 'run') throw fail('kind', `a ${r.kind} result; only results of \`loadlab run\` merge`);
  if (r.version !== 3 || !r.windows?.requests)
    throw fail('version', `a version ${r.version} report without per-window request counts; re-run the shards with this loadlab`);
  const shard = shardOf(r);
  if (shard === undefined)
    throw fail(
      'shard',
      'missing: a whole run, not a shard of one (merge takes the report.json of each `loadlab run --shard I/N`; adding whole runs would count one schedule twice)',
    );
  checkShard(shard, fail);
  const time0Ms = shard.startAtMs ?? (typeof r.wallClock?.startedAt === 'string' ? Date.parse(r.wallClock.startedAt) : NaN);
  if (!Number.isFinite(time0Ms))
    throw fail('wallClock.startedAt', "missing or not a date, and no shard.startAtMs: the run's start is needed to align its windows");
  return { ...input, shard, time0Ms };
}

function checkShard(s: ShardInfo, fail: (field: string, why: string) => MergeError): void {
  if (!Number.isInteger(s.count) || s.count < 1) throw fail('shard.count', `must be a whole number ≥ 1, got ${JSON.stringify(s.count)}`);
  const ok =
    Array.isArray(s.indices) &&
    s.indices.length > 0 &&
    s.indices.every((i, k) => Number.isInteger(i) && i >= 0 && i < s.count && (k === 0 || i > s.indices[k - 1]!));
  if (!ok) throw fail('shard.indices', `must be ascending whole numbers in 0…${s.count - 1}, got ${JSON.stringify(s.indices)}`);
  if (s.startAtMs !== undefined && !Number.isFinite(s.startAtMs)) throw fail('shard.startAtMs', `must be epoch ms, got ${JSON.stringify(s.startAtMs)}`);
}

function checkOverlap(checked: readonly CheckedInput[]): void {
  const owner = new Map<number, CheckedInput>();
  for (const x of checked) {
    for (const i of x.shard.indices) {
      const prev = owner.get(i);
      if (prev)
        throw new MergeError(
          `${prev.name} and ${x.name} both hold shard ${i} of ${x.shard.count} (shard.indices): each shard may be merged once`,
          'shard.indices',
        );
      owner.set(i, x);
    }
  }
}
