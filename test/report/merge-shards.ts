/**
 * Shard results for the merge tests, made in virtual time on the embedded simulator: one scenario
 * (name, seed, length, thresholds shared), each shard with its own traffic, marked with its
 * `shard` field and a start instant by hand, as `loadlab run --shard I/N` writes them.
 */
import { runScenario } from '../../src/load/run-scenario.js';
import { scenarioSchema } from '../../src/load/scenario/schema.js';
import { parseRunResult, renderJson } from '../../src/report/render-json.js';
import type { RunResult } from '../../src/report/run-result.js';
import type { ShardInfo } from '../../src/report/merge/shard-info.js';

/** 2026-01-01T00:00:00Z: a whole number of 10 s windows since the epoch. */
export const T0 = Date.UTC(2026, 0, 1);

const poll = { behaviour: 'run-poll', poll: { baseMs: 500, factor: 1, maxMs: 500, jitter: 0 } };

/** `ratePerSec` of flow `a`; `withB` adds flow `b` (a flow only some shards have). */
export function shardScenario(ratePerSec: number, withB: boolean, thresholds: string[] = []) {
  return scenarioSchema.parse({
    name: 'merge-me',
    seed: 7,
    durationMs: 40_000,
    drainMs: 10_000,
    endpoint: { workersMin: 2, workersMax: 4, jobDurationMs: { dist: 'lognormal', medianMs: 300, p95Ms: 1500 } },
    traffic: [
      { name: 'a', arrival: { process: 'poisson', ratePerSec }, client: poll },
      ...(withB ? [{ name: 'b', arrival: { process: 'constant', ratePerSec: 1 }, client: { behaviour: 'runsync' } }] : []),
    ],
    thresholds,
  });
}

/** A shard's report.json as read back from disk. */
export async function shardResult(
  i: number,
  count: number,
  opts: { rate: number; withB?: boolean; startOffsetMs?: number; startAtMs?: number; thresholds?: string[] },
): Promise<RunResult> {
  const r = await runScenario(shardScenario(opts.rate, opts.withB ?? false, opts.thresholds));
  const shard: ShardInfo = { count, indices: [i], ...(opts.startAtMs !== undefined ? { startAtMs: opts.startAtMs } : {}) };
  const marked = { ...r, shard, wallClock: { startedAt: new Date(T0 + (opts.startOffsetMs ?? 0)).toISOString(), wallMs: 100 + i } };
  return parseRunResult(renderJson(marked));
}
