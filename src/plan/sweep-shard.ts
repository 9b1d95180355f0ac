/**
 * One shard of a sweep (`loadlab plan --shard I/N`). The grid's points in canonical order — line
 * by line (the `--grid` combinations in the order of grid.ts's `combinations`), each line along
 * the workersMax range — are numbered p = line × range length + the workersMax's place in the
 * range; shard I of N runs every seed of each point p with p mod N = I. A shard runs all of its
 * points: the early stop needs the points below, which other shards hold, so the merge
 * (merge-plans.ts) applies it to the joined points instead, and the joined plan is the plan one
 * machine makes.
 */
import type { Knobs } from './grid.js';
import type { PointResult, PointTask } from './sweep-point.js';
import type { PointRunner } from './sweep.js';

export interface ShardSpec {
  index: number;
  count: number;
}

export interface ShardSweepOptions {
  workers: readonly number[];
  seeds: readonly (number | string)[];
  /** Knob combinations (one line, no knobs, without a grid). */
  lines: readonly Knobs[];
  shard: ShardSpec;
  /** Runs at once (the runner's threads). */
  concurrency: number;
  onRun?: (done: number) => void;
}

/** A point of the grid with its runs, one per seed in the order of the seeds. */
export interface ShardPoint {
  point: number;
  runs: PointResult[];
}

/** The points of the grid shard I of N holds, ascending. */
export function shardPoints(totalPoints: number, shard: ShardSpec): number[] {
  const out: number[] = [];
  for (let p = shard.index; p < totalPoints; p += shard.count) out.push(p);
  return out;
}

/** The task of point `p`, seed `seed`. */
export function pointTask(o: Pick<ShardSweepOptions, 'workers' | 'lines'>, p: number, seed: number | string): PointTask {
  const n = o.workers.length;
  return { workersMax: o.workers[p % n]!, knobs: o.lines[Math.floor(p / n)]!, seed };
}

export function sweepShard(runner: PointRunner, o: ShardSweepOptions): Promise<ShardPoint[]> {
  const points = shardPoints(o.lines.length * o.workers.length, o.shard);
  const nSeeds = o.seeds.length;
  const tasks = points.flatMap((p) => o.seeds.map((seed) => pointTask(o, p, seed)));
  const results: PointResult[] = new Array(tasks.length);
  let next = 0;
  let done = 0;
  // Up to `concurrency` chains, each taking the next task as its last one ends; results land by task index.
  const chain = async (): Promise<void> => {
    while (next < tasks.length) {
      const i = next++;
      results[i] = await runner.run(tasks[i]!);
      o.onRun?.(++done);
    }
  };
  return Promise.all(Array.from({ length: Math.max(1, Math.min(o.concurrency, tasks.length)) }, chain)).then(() =>
    points.map((point, k) => ({ point, runs: results.slice(k * nSeeds, (k + 1) * nSeeds) })),
  );
}
