/**
 * A partial plan: what one shard of a sharded plan (`loadlab plan --shard I/N`) writes as its
 * plan.json. It holds the raw runs of its points (sweep-shard.ts) and every input of the plan, so
 * that `loadlab plan merge` can check that the shards belong to one plan and build, from the joined
 * runs, the plan.json / plan.md / plan.html one machine would have written. It has no
 * recommendation and no rows: a shard sees only some points, and the early stop and the
 * recommendation need them all. Marked by `shard` (a whole plan has none).
 */
import { z } from 'zod';
import { PLAN_VERSION } from './plan-result.js';
import type { PlanSpec } from './plan-spec.js';
import type { ShardPoint } from './sweep-shard.js';

export interface PartialPlan {
  version: number;
  /** Shard count N and the shard indices this result holds (one shard: [I]). */
  shard: { count: number; indices: number[] };
  spec: PlanSpec;
  /** The grid points held (p mod N in `shard.indices`), ascending, each with its runs by seed. */
  points: ShardPoint[];
}

export function renderPartialPlanJson(p: PartialPlan): string {
  return `${JSON.stringify(p, null, 2)}\n`;
}

const num = z.number();
const numOrNull = z.number().nullable();
const seed = z.union([z.number(), z.string()]);
const knobs = z.record(z.string(), z.union([z.number(), z.string(), z.array(z.string())]));
const whole = z.number().int().min(0);

const pointResult = z.object({
  workersMax: whole,
  knobs,
  workersMin: whole,
  seed,
  slo: z.array(z.object({ value: numOrNull, ok: z.boolean() })),
  figures: z.object({
    jobsAccepted: num,
    jobsCompleted: num,
    turnaroundP95Ms: numOrNull,
    queueDelayMeanMs: numOrNull,
    queueDelayP95Ms: numOrNull,
    limitedRate: numOrNull,
    elapsedMs: num,
    requests: num,
    jobsFailed: num,
    balancerFailed: z.record(z.string(), num).optional(),
    ttftP95Ms: numOrNull.optional(),
    engineWaitingShare: numOrNull.optional(),
  }),
  bill: z.object({
    activeSeconds: num,
    flexSeconds: num,
    workersStarted: num,
    secondsByState: z.record(z.string(), num),
    byGpu: z
      .array(z.object({ gpu: z.string(), activeSeconds: num, flexSeconds: num, workersStarted: num, secondsByState: z.record(z.string(), num) }))
      .optional(),
  }),
});

const partialSchema = z.object({
  version: z.literal(PLAN_VERSION),
  shard: z.object({ count: z.number().int().min(1), indices: z.array(whole).min(1) }),
  spec: z.object({
    scenario: z.object({ name: z.string(), file: z.string().optional(), durationMs: num }),
    slo: z.object({ source: z.enum(['--slo', 'slo', 'thresholds']), exprs: z.array(z.string()).min(1), added: z.array(z.string()).optional() }),
    workers: z.array(z.number().int().min(1)).min(1),
    grid: z.boolean(),
    lines: z.array(knobs).min(1),
    workersMin: z.union([whole, z.literal('max')]),
    seeds: z.array(seed).min(1),
    exhaustive: z.boolean(),
    mmc: z.object({ arrivalsPerSec: num.nullable(), meanJobMs: num }),
    prices: z
      .object({
        flexPerSec: num,
        activePerSec: num,
        gpu: z.string().optional(),
        priceBook: z.string().optional(),
        asOf: z.string().optional(),
        byGpu: z.record(z.string(), z.object({ flexPerSec: num, activePerSec: num })).optional(),
      })
      .optional(),
    // Checked by the scenario schema where the merge uses it (merge-plans.ts).
    scenarioConfig: z.record(z.string(), z.unknown()),
  }),
  points: z.array(z.object({ point: whole, runs: z.array(pointResult) })),
});

/**
 * The partial plan in a plan.json's parsed JSON, or what is wrong with it (the field path and the
 * reason; a whole plan, without `shard`, is named as such).
 */
export function parsePartialPlan(raw: unknown): PartialPlan | string {
  if (raw !== null && typeof raw === 'object' && !('shard' in raw) && 'recommendation' in raw) {
    return 'a whole plan (no shard field): only the plan.json of `loadlab plan --shard I/N` merges';
  }
  const r = partialSchema.safeParse(raw);
  // The input itself, not zod's copy: objects a plan passes through (prices, knobs) keep their key order, so their bytes.
  if (r.success) return raw as PartialPlan;
  const i = r.error.issues[0]!;
  return `${i.path.join('.') || 'plan.json'}: ${i.message}`;
}
