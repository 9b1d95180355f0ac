/**
 * Joins the partial plans of a sharded plan (partial-plan.ts) into the sweep's outcome one machine
 * would have reached: the inputs must be shards of one plan (same spec and shard count), together
 * hold every shard exactly once, and each hold exactly its shards' points with a run per seed.
 * Then the early stop (early-stop.ts) is applied to each line's joined points, so the outcome — and
 * the plan built from it — is the single-machine one, whatever the order of the inputs. Pure.
 */
import { checkThreshold } from '../report/threshold-check.js';
import type { Threshold } from '../report/thresholds.js';
import { parseScenario } from '../load/scenario/loader.js';
import type { Scenario } from '../load/scenario/schema.js';
import { stopOfLine } from './early-stop.js';
import { firstDifference } from './first-difference.js';
import type { PartialPlan } from './partial-plan.js';
import type { PlanSpec } from './plan-spec.js';
import type { PointResult } from './sweep-point.js';
import { pointTask, shardPoints } from './sweep-shard.js';
import { pointMeets, type SweepOutcome } from './sweep.js';

export const PLAN_MERGE_ERRORS = {
  PLAN_MERGE_ERR_DIFFERENT: 'the inputs are not shards of one plan (scenario, flags or shard count differ)',
  PLAN_MERGE_ERR_OVERLAP: 'two inputs hold the same shard',
  PLAN_MERGE_ERR_MISSING: 'a shard is missing',
  PLAN_MERGE_ERR_POINTS: "an input's points or runs do not match its shard",
} as const;
export type PlanMergeErrorCode = keyof typeof PLAN_MERGE_ERRORS;

/** A partial plan and the name of the input it came from (its directory), for messages. */
export interface NamedPartial {
  name: string;
  plan: PartialPlan;
}

export type PlanMerge =
  | { ok: true; spec: PlanSpec; scenario: Scenario; slos: Threshold[]; outcome: SweepOutcome }
  | { ok: false; code: PlanMergeErrorCode; message: string };

const show = (v: unknown) => {
  const s = v === undefined ? 'absent' : JSON.stringify(v);
  return s.length > 80 ? `${s.slice(0, 77)}...` : s;
};
const fail = (code: PlanMergeErrorCode, message: string): PlanMerge => ({ ok: false, code, message });

export function mergePartialPlans(ins: readonly NamedPartial[]): PlanMerge {
  const first = ins[0]!;
  const identity = (x: NamedPartial) => ({ shard: { count: x.plan.shard.count }, spec: x.plan.spec });
  for (const x of ins.slice(1)) {
    const d = firstDifference(identity(first), identity(x));
    if (d)
      return fail(
        'PLAN_MERGE_ERR_DIFFERENT',
        `${first.name} and ${x.name} are not shards of one plan: they differ in ${d.path} (${show(d.a)} vs ${show(d.b)})`,
      );
  }
  const spec = first.plan.spec;
  const count = first.plan.shard.count;

  // Shard index → the input (its position) holding it.
  const holder = new Map<number, number>();
  for (const [k, x] of ins.entries()) {
    for (const i of x.plan.shard.indices) {
      if (i >= count) return fail('PLAN_MERGE_ERR_POINTS', `${x.name}: shard.indices: shard ${i} is not below the shard count ${count}`);
      const h = holder.get(i);
      if (h !== undefined)
        return fail(
          'PLAN_MERGE_ERR_OVERLAP',
          h === k ? `${x.name}: shard.indices: lists shard ${i} twice` : `${ins[h]!.name} and ${x.name} both hold shard ${i} of ${count}: give each shard once`,
        );
      holder.set(i, k);
    }
  }
  const missing = Array.from({ length: count }, (_, i) => i).filter((i) => !holder.has(i));
  if (missing.length) {
    const given = ins.map((x) => `${x.name} (shard ${x.plan.shard.indices.join(', ')})`).join(', ');
    return fail(
      'PLAN_MERGE_ERR_MISSING',
      `shard${missing.length > 1 ? 's' : ''} ${missing.join(', ')} of ${count} missing: give the directory of every shard (given: ${given})`,
    );
  }

  const total = spec.lines.length * spec.workers.length;
  const byPoint = new Map<number, PointResult[]>();
  for (const x of ins) {
    const why = pointsProblem(x.plan, total);
    if (why) return fail('PLAN_MERGE_ERR_POINTS', `${x.name}: ${why}`);
    for (const p of x.plan.points) byPoint.set(p.point, p.runs);
  }

  // The runs are done: the scenario only shapes plan.md and plan.html, so a token trace it replays need not be on this machine.
  const sc = parseScenario(spec.scenarioConfig, `${first.name}: spec.scenarioConfig`, { readTokenTraces: false });
  if (!sc.ok)
    return fail('PLAN_MERGE_ERR_POINTS', `${first.name}: spec.scenarioConfig: ${sc.issues.map((i) => `${i.path || '(scenario)'}: ${i.message}`).join('; ')}`);
  const slos: Threshold[] = [];
  for (const [i, e] of spec.slo.exprs.entries()) {
    const t = checkThreshold(e, {});
    if (Array.isArray(t)) return fail('PLAN_MERGE_ERR_POINTS', `${first.name}: spec.slo.exprs.${i}: ${t.join('; ')}`);
    slos.push(t);
  }

  const n = spec.workers.length;
  const lines = spec.lines.map((knobs, l) => {
    const pts = spec.workers.map((_, w) => byPoint.get(l * n + w)!);
    const stop = stopOfLine(pts.map(pointMeets), spec.exhaustive);
    return { knobs, points: pts.slice(0, stop.points), stoppedAfter: stop.stopPoint === null ? null : spec.workers[stop.stopPoint]! };
  });
  return { ok: true, spec, scenario: sc.scenario, slos, outcome: { lines } };
}

/** What is wrong with the points of a partial plan, or undefined: exactly its shards' points, each with a run per seed of that point. */
function pointsProblem(p: PartialPlan, total: number): string | undefined {
  const want = p.shard.indices.flatMap((index) => shardPoints(total, { index, count: p.shard.count })).sort((a, b) => a - b);
  const have = p.points.map((x) => x.point);
  if (have.join() !== want.join())
    return `points: holds grid points ${show(have)}, but shard ${p.shard.indices.join(', ')} of ${p.shard.count} holds ${show(want)}`;
  for (const [k, x] of p.points.entries()) {
    if (x.runs.length !== p.spec.seeds.length) return `points.${k}.runs: ${x.runs.length} runs, one per seed expected (${p.spec.seeds.length})`;
    for (const [s, r] of x.runs.entries()) {
      const task = pointTask(p.spec, x.point, p.spec.seeds[s]!);
      const d = firstDifference(
        { workersMax: task.workersMax, seed: task.seed, knobs: task.knobs },
        { workersMax: r.workersMax, seed: r.seed, knobs: r.knobs },
      );
      if (d) return `points.${k}.runs.${s}.${d.path}: ${show(d.b)}, but grid point ${x.point} with seed ${show(task.seed)} has ${show(d.a)}`;
      if (r.slo.length !== p.spec.slo.exprs.length) return `points.${k}.runs.${s}.slo: ${r.slo.length} values for ${p.spec.slo.exprs.length} SLOs`;
    }
  }
  return undefined;
}
