/**
 * Sharded sweeps joined: for every shard count N, the shards' partial plans (through their JSON),
 * merged in any order, give the single sweep's outcome and plan — early stop per grid line
 * included — and inputs that are not every shard of one plan exactly once are refused with the
 * field named. The points' results come from a plain function of the task (no simulator), so
 * this runs in milliseconds; test/cli/plan-merge.test.ts does the same through the CLI.
 */
import { describe, expect, test } from 'vitest';
import { loadScenarioFile } from '../../src/load/scenario/loader.js';
import { checkThreshold } from '../../src/report/threshold-check.js';
import type { Threshold } from '../../src/report/thresholds.js';
import { RandomSource } from '../../src/lib/random.js';
import { mergePartialPlans, type NamedPartial } from '../../src/plan/merge-plans.js';
import { mmcInputs } from '../../src/plan/mmc-reference.js';
import { parsePartialPlan, renderPartialPlanJson, type PartialPlan } from '../../src/plan/partial-plan.js';
import { buildPlan, PLAN_VERSION, renderPlanJson } from '../../src/plan/plan-result.js';
import { planInputsOf, type PlanSpec } from '../../src/plan/plan-spec.js';
import { shardPoints, sweepShard } from '../../src/plan/sweep-shard.js';
import type { PointResult, PointTask } from '../../src/plan/sweep-point.js';
import { sweep, type PointRunner } from '../../src/plan/sweep.js';

const loaded = loadScenarioFile('test/fixtures/plan-small.yaml');
if (!loaded.ok) throw new Error('fixture');
const sc = loaded.scenario;
const slos = [checkThreshold('turnaround_p95_ms < 5000', {}) as Threshold];

/** A point meets its SLO from workersMax `need` up (a line's need depends on its knobs); seed 2 also at workersMax 2. */
function result(t: PointTask): PointResult {
  const need = t.knobs.idleTimeoutMs === 1000 ? 4 : 6;
  const ok = t.workersMax >= need || (t.seed === 2 && t.workersMax === 2);
  const v = 9000 - 1000 * t.workersMax + Number(t.seed);
  return {
    workersMax: t.workersMax,
    knobs: t.knobs,
    workersMin: 0,
    seed: t.seed,
    slo: [{ value: ok ? Math.min(v, 4999) : Math.max(v, 5001), ok }],
    figures: {
      jobsAccepted: 10,
      jobsCompleted: 9,
      turnaroundP95Ms: v / 3,
      queueDelayMeanMs: v / 7,
      queueDelayP95Ms: v / 5,
      limitedRate: 0.125,
      elapsedMs: 60_000,
      requests: 40,
      jobsFailed: 0,
    },
    bill: { activeSeconds: 0, flexSeconds: 11 * t.workersMax, workersStarted: t.workersMax, secondsByState: { idle: 1.5, running: 3.25 * t.workersMax } },
  };
}

/** Runs end in an order drawn from `seed`, so completion order never decides anything. */
function shuffledRunner(seed: string): PointRunner {
  const rng = new RandomSource(seed).stream('order');
  const pending: (() => void)[] = [];
  return {
    run: (t) =>
      new Promise((resolve) => {
        pending.push(() => resolve(result(t)));
        setTimeout(() => pending.splice(Math.floor(rng.next() * pending.length), 1)[0]?.(), 0);
      }),
    close: async () => undefined,
  };
}

const specOf = (exhaustive: boolean, lines: PlanSpec['lines']): PlanSpec => ({
  scenario: { name: sc.name, file: 'test/fixtures/plan-small.yaml', durationMs: sc.durationMs },
  slo: { source: '--slo', exprs: slos.map((t) => t.expr) },
  workers: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10],
  grid: lines.length > 1 || Object.keys(lines[0]!).length > 0,
  lines,
  workersMin: 0,
  seeds: [1, 2],
  exhaustive,
  mmc: mmcInputs(sc),
  prices: { flexPerSec: 0.001, activePerSec: 0.0008 },
  scenarioConfig: sc,
});

async function shards(spec: PlanSpec, count: number): Promise<NamedPartial[]> {
  const out: NamedPartial[] = [];
  for (let index = 0; index < count; index++) {
    const points = await sweepShard(shuffledRunner(`s${index}`), {
      workers: spec.workers,
      seeds: spec.seeds,
      lines: spec.lines,
      shard: { index, count },
      concurrency: 3,
    });
    const json = renderPartialPlanJson({ version: PLAN_VERSION, shard: { count, indices: [index] }, spec, points });
    const plan = parsePartialPlan(JSON.parse(json));
    if (typeof plan === 'string') throw new Error(plan);
    out.push({ name: `shard${index}`, plan });
  }
  return out;
}

const rotate = <T>(xs: T[], k: number) => [...xs.slice(k % xs.length), ...xs.slice(0, k % xs.length)];

describe('sharded sweep, merged', () => {
  const grid = [{ idleTimeoutMs: 1000 }, { idleTimeoutMs: 5000 }];
  for (const [exhaustive, lines] of [
    [false, [{}]],
    [false, grid],
    [true, grid],
  ] as const) {
    test(`N = 1…7 and 12 shards (some empty) in any order give the single sweep's outcome and plan.json (${lines.length} line${lines.length > 1 ? 's' : ''}${exhaustive ? ', exhaustive' : ', early stop'})`, async () => {
      const spec = specOf(exhaustive, [...lines]);
      const whole = await sweep(shuffledRunner('whole'), { workers: spec.workers, seeds: spec.seeds, lines: spec.lines, exhaustive, concurrency: 2 });
      if (!exhaustive) expect(whole.lines.map((l) => l.stoppedAfter)).toEqual(lines.length > 1 ? [6, 8] : [8]);
      const wholeJson = renderPlanJson(buildPlan(planInputsOf(spec, slos), whole));
      for (const n of [1, 2, 3, 4, 5, 6, 7, 12]) {
        const parts = await shards(spec, n);
        const m = mergePartialPlans(rotate(parts, n).reverse());
        if (!m.ok) throw new Error(m.message);
        expect(m.outcome).toEqual(whole);
        expect(renderPlanJson(buildPlan(planInputsOf(m.spec, m.slos), m.outcome))).toBe(wholeJson);
      }
    });
  }

  test('the shards partition the grid: every point in exactly one shard, p mod N = I', () => {
    for (let n = 1; n <= 8; n++) {
      const all = Array.from({ length: n }, (_, index) => shardPoints(23, { index, count: n }))
        .flat()
        .sort((a, b) => a - b);
      expect(all).toEqual(Array.from({ length: 23 }, (_, p) => p));
      expect(shardPoints(23, { index: n - 1, count: n }).every((p) => p % n === n - 1)).toBe(true);
    }
  });
});

describe('inputs that are not every shard of one plan, once', () => {
  const spec = specOf(false, [{}]);
  const three = shards(spec, 3);
  const refused = (parts: NamedPartial[]) => {
    const m = mergePartialPlans(parts);
    if (m.ok) throw new Error('merged');
    return m;
  };

  test('a shard missing, or given twice', async () => {
    const [a, b, c] = await three;
    expect(refused([a!, c!])).toEqual({
      ok: false,
      code: 'PLAN_MERGE_ERR_MISSING',
      message: 'shard 1 of 3 missing: give the directory of every shard (given: shard0 (shard 0), shard2 (shard 2))',
    });
    expect(refused([a!, b!, c!, { ...b!, name: 'copy' }])).toMatchObject({
      code: 'PLAN_MERGE_ERR_OVERLAP',
      message: 'shard1 and copy both hold shard 1 of 3: give each shard once',
    });
  });

  test('shards of different plans: the first differing field is named with both inputs', async () => {
    const [a, b, c] = await three;
    const other = (name: string, p: PartialPlan): NamedPartial => ({ name, plan: p });
    expect(refused([a!, other('b-seeds', { ...b!.plan, spec: { ...spec, seeds: [1, 3] } }), c!])).toMatchObject({
      code: 'PLAN_MERGE_ERR_DIFFERENT',
      message: 'shard0 and b-seeds are not shards of one plan: they differ in spec.seeds.1 (2 vs 3)',
    });
    expect(refused([a!, b!, other('c-four', { ...c!.plan, shard: { count: 4, indices: [2] } })])).toMatchObject({
      code: 'PLAN_MERGE_ERR_DIFFERENT',
      message: 'shard0 and c-four are not shards of one plan: they differ in shard.count (3 vs 4)',
    });
    const edited = { ...sc, endpoint: { ...sc.endpoint, coldStartMs: 5 } };
    expect(refused([a!, b!, other('c-edited', { ...c!.plan, spec: { ...spec, scenarioConfig: edited } })]).message).toBe(
      'shard0 and c-edited are not shards of one plan: they differ in spec.scenarioConfig.endpoint.coldStartMs (0 vs 5)',
    );
  });

  test('a shard whose points are not its own, or a run short', async () => {
    const [a, b, c] = await three;
    expect(refused([a!, b!, { name: 'c', plan: { ...c!.plan, points: c!.plan.points.slice(1) } }]).message).toBe(
      'c: points: holds grid points [5,8], but shard 2 of 3 holds [2,5,8]',
    );
    const short = c!.plan.points.map((p, i) => (i === 1 ? { ...p, runs: p.runs.slice(0, 1) } : p));
    expect(refused([a!, b!, { name: 'c', plan: { ...c!.plan, points: short } }]).message).toBe('c: points.1.runs: 1 runs, one per seed expected (2)');
  });

  test('a whole plan.json, or a broken one, is not a partial plan', () => {
    expect(parsePartialPlan({ version: 1, recommendation: { workersMax: 3 }, rows: [] })).toMatch(/^a whole plan \(no shard field\)/);
    expect(parsePartialPlan({ version: 1, shard: { count: 2, indices: [] } })).toBe('shard.indices: Too small: expected array to have >=1 items');
  });
});
