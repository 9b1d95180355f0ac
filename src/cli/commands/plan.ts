/**
 * `loadlab plan SCENARIO`: sweeps workersMax over seeds on the embedded simulator,
 * checks the SLOs (plan/slo.ts), recommends the smallest workersMax meeting every SLO on every
 * seed (with `--grid`, the cheapest point), and writes plan.json, plan.md and plan.html (charts,
 * then plan.md's tables) under `--out`. Exit 0 with a recommendation, 99 when no point meets the
 * SLOs, 2 on bad input (naming the flag or the scenario's file and field). With `--shard I/N` (or
 * `--shards N` / LOADLAB_SHARDS with JOB_COMPLETION_INDEX) it runs only its share of the grid
 * (plan/sweep-shard.ts) and writes a partial plan.json for `loadlab plan merge` (plan-merge.ts).
 */
import { availableParallelism } from 'node:os';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CommandModule } from 'yargs';
import { checkCombinations, combinations, gridOfScenario, parseGrid, type GridAxis } from '../../plan/grid.js';
import { gridGpuTypes } from '../../plan/grid-gpus.js';
import { inlineRunner } from '../../plan/inline-runner.js';
import { mmcInputs } from '../../plan/mmc-reference.js';
import { renderPartialPlanJson } from '../../plan/partial-plan.js';
import { buildPlan, PLAN_VERSION } from '../../plan/plan-result.js';
import { planInputsOf, type PlanSpec } from '../../plan/plan-spec.js';
import { planTraces, type PlanTrace } from '../../plan/plan-traces.js';
import { slosOf, withBalancerSlo } from '../../plan/slo.js';
import { trafficProblems, typeAt } from '../../plan/grid-type.js';
import { sweep, type PointRunner } from '../../plan/sweep.js';
import type { PointResult, SweepBase } from '../../plan/sweep-point.js';
import { shardPoints, sweepShard } from '../../plan/sweep-shard.js';
import { threadRunner } from '../../plan/thread-runner.js';
import { DEFAULT_WORKERS_RANGE, parseWorkersRange } from '../../plan/workers-range.js';
import { CliError, EXIT } from '../exit-codes.js';
import { shardOf, shardOptions, type ShardChoice } from '../shard-option.js';
import { bad, seedsOf, sweepOptions, wholeAtLeast, workersMinOf, type PlanArgs } from './plan-flags.js';
import { planMergeCommandModule } from './plan-merge.js';
import { plural, recommendationLines, writeWholePlan } from './plan-write.js';
import { priceOptions, pricesOf } from './price-flags.js';
import { loadedOrExit } from './run.js';
import { COMMANDS } from './catalog.js';

export async function planCommand(a: PlanArgs): Promise<number> {
  // Flags first (a bad flag is named before the scenario is read), then the scenario's plan: section.
  const flagRange = a['workers-max'] === undefined ? undefined : parseWorkersRange(a['workers-max']);
  if (typeof flagRange === 'string') throw bad(`--workers-max: ${flagRange}`);
  const flagSeeds = a.seeds === undefined ? undefined : wholeAtLeast('seeds', a.seeds, 1, 3);
  const jobs = wholeAtLeast('jobs', a.jobs, 1, availableParallelism());
  const flagAxes = parseGrid(a.grid ?? []);
  if (typeof flagAxes[0] === 'string')
    throw bad(`bad grid (${flagAxes.length} problem${flagAxes.length > 1 ? 's' : ''}):\n${(flagAxes as string[]).map((p) => `  ${p}`).join('\n')}`);
  const shard = shardOf(a);
  const { scenario: sc, engineGiven } = loadedOrExit(a.scenario, a.gpu);
  // The scenario's plan.workersMax was checked when it loaded.
  const range = flagRange ?? (parseWorkersRange(sc.plan?.workersMax ?? DEFAULT_WORKERS_RANGE) as number[]);
  const nSeeds = flagSeeds ?? sc.plan?.seeds ?? 3;
  const axes = a.grid?.length ? (flagAxes as GridAxis[]) : gridOfScenario(sc.plan?.grid);
  const lines = combinations(axes);
  const gridWhere = a.grid?.length ? '--grid' : `${a.scenario}: plan.grid`;
  const gridProblems = [...trafficProblems(sc, lines, gridWhere), ...checkCombinations(sc.endpoint, lines, gridWhere)];
  if (gridProblems.length)
    throw bad(
      `bad grid for ${a.scenario} (${gridProblems.length} problem${gridProblems.length > 1 ? 's' : ''}):\n${gridProblems.map((p) => `  ${p}`).join('\n')}`,
    );
  // A grid over gpus prices every type of every point's list (each point's endpoint lists its own).
  const gridGpus = gridGpuTypes(lines);
  const prices = gridGpus.length
    ? pricesOf(a, sc.plan, a.scenario, gridGpus, a.grid?.length ? '--grid gpus' : `${a.scenario}: plan.grid.gpus`)
    : pricesOf(a, sc.plan, a.scenario, sc.endpoint.gpus);
  const given = slosOf(sc, a.slo ?? []);
  if (Array.isArray(given)) throw bad(`bad SLO (${given.length} problem${given.length > 1 ? 's' : ''}):\n${given.map((p) => `  ${p}`).join('\n')}`);
  if (!given.list.length) throw bad(`${a.scenario}: slo: no SLOs to plan for: add an slo: list (or thresholds:) to the scenario, or give --slo EXPR`);
  const slos = withBalancerSlo(
    given,
    lines.some((k) => typeAt(sc, k) === 'load-balancer'),
  );
  const workersMin = workersMinOf(a['workers-min'], sc.endpoint.workersMin);
  const seed = a.seed ?? sc.seed;
  const seeds = seedsOf(typeof seed === 'string' && /^-?\d+$/.test(seed) ? Number(seed) : seed, nSeeds);

  const spec: PlanSpec = {
    scenario: { name: sc.name, file: a.scenario, durationMs: sc.durationMs, ...withTraces(planTraces(sc)) },
    slo: { source: slos.source, exprs: slos.list.map((t) => t.expr), ...(slos.added ? { added: slos.added } : {}) },
    workers: range,
    grid: axes.length > 0,
    lines,
    workersMin,
    seeds,
    exhaustive: a.exhaustive === true,
    mmc: mmcInputs(sc),
    ...(prices ? { prices } : {}),
    scenarioConfig: sc,
  };
  const base: SweepBase = { scenario: sc, slos: spec.slo.exprs, workersMin, ...(engineGiven ? { engineGiven } : {}) };
  const total = lines.length * range.length;
  const runs = shard ? shardPoints(total, shard).length * nSeeds : total * nSeeds;
  const threads = Math.max(1, Math.min(jobs, runs));
  const runner = threads > 1 ? threadRunner(base, threads) : inlineRunner(base);
  const tty = process.stderr.isTTY === true && !process.env.CI;
  const onRun = tty ? (done: number) => process.stderr.write(`\r  plan: ${done} runs done (at most ${runs})  `) : undefined;
  const wallStart = performance.now();
  const wall = () => `in ${((performance.now() - wallStart) / 1000).toFixed(1)} s wall on ${plural(threads, 'thread')}`;
  if (shard)
    return planShard(
      a,
      spec,
      shard,
      await closing(runner, () => sweepShard(runner, { workers: range, seeds, lines, shard, concurrency: threads, onRun })),
      tty,
      wall,
    );

  const outcome = await closing(runner, () => sweep(runner, { workers: range, seeds, lines, exhaustive: spec.exhaustive, concurrency: threads, onRun }));
  if (tty) process.stderr.write('\r\x1b[K');
  const plan = buildPlan(planInputsOf(spec, slos.list), outcome);
  const dir = a.out ?? join('reports', sc.name, 'plan');
  writeWholePlan(dir, plan, sc);
  const done = outcome.lines.flatMap((l) => l.points.flat());
  const rec = plan.recommendation;
  process.stdout.write(
    [
      ...recommendationLines(plan),
      `  ${plural(done.length, 'run')} (${plural(plan.rows.length, 'point')} × ${plural(nSeeds, 'seed')}${lines.length === 1 && outcome.lines[0]!.stoppedAfter !== null ? `, stopped early after workersMax ${outcome.lines[0]!.stoppedAfter}` : ''}), ${tally(done)} ${wall()}`,
      `  plan: ${join(dir, 'plan.md')}`,
      '',
    ].join('\n'),
  );
  if (rec.workersMax === null) throw new CliError(`no point meets the SLOs: ${rec.reason}`, EXIT.THRESHOLD_FAILED);
  return EXIT.OK;
}

/** The traces field only when the scenario replays one: a plan without keeps its bytes. */
const withTraces = (traces: PlanTrace[]) => (traces.length ? { traces } : {});

/** Runs `work`, then closes the runner (its threads) whether or not the work failed. */
async function closing<T>(runner: PointRunner, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } finally {
    await runner.close();
  }
}

const tally = (runs: readonly PointResult[]) =>
  `${runs.reduce((n, r) => n + r.figures.jobsAccepted, 0)} jobs, ${runs.reduce((n, r) => n + r.figures.requests, 0)} requests`;

/**
 * A shard of a plan writes only its partial plan.json (no recommendation: that needs every shard's
 * points) and exits 0; plan.md and plan.html left in its directory by a whole plan are removed, so
 * the directory never shows a recommendation its plan.json does not hold.
 */
function planShard(a: PlanArgs, spec: PlanSpec, shard: ShardChoice, points: Awaited<ReturnType<typeof sweepShard>>, tty: boolean, wall: () => string): number {
  if (tty) process.stderr.write('\r\x1b[K');
  const dir = a.out ?? join('reports', spec.scenario.name, 'plan', `shard-${shard.index}-of-${shard.count}`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'plan.json'), renderPartialPlanJson({ version: PLAN_VERSION, shard: { count: shard.count, indices: [shard.index] }, spec, points }));
  for (const f of ['plan.md', 'plan.html']) rmSync(join(dir, f), { force: true });
  const total = spec.lines.length * spec.workers.length;
  process.stdout.write(
    [
      `PARTIAL PLAN: shard ${shard.index} of ${shard.count} (${shard.from}): ${points.length} of ${plural(total, 'grid point')} × ${plural(spec.seeds.length, 'seed')}, every one run (the early stop is applied when the shards are merged)`,
      `  ${plural(points.length * spec.seeds.length, 'run')}, ${tally(points.flatMap((p) => p.runs))} ${wall()}`,
      "  no recommendation from one shard: join every shard's directory with `loadlab plan merge DIR... --out DIR`",
      `  partial plan: ${join(dir, 'plan.json')}`,
      '',
    ].join('\n'),
  );
  return EXIT.OK;
}

/** `loadlab plan SCENARIO`: the sweep (the default subcommand of `plan`). */
const planSweepModule: CommandModule<object, PlanArgs> = {
  command: '$0 <scenario>',
  describe:
    'Capacity planning: sweep workersMax (with --grid, also endpoint knobs such as workerConcurrency) over seeds on the embedded simulator and recommend the smallest (with --grid, the cheapest) meeting every SLO',
  builder: (y) =>
    shardOptions(
      priceOptions(
        sweepOptions(
          y.positional('scenario', {
            type: 'string',
            demandOption: true,
            describe: 'Scenario file (YAML or JSON); its slo: list (else its thresholds) are the SLOs',
          }),
        )
          .option('jobs', { type: 'number', describe: 'Points run at once, on worker threads (default: the core count); plan.json is the same whatever N' })
          .option('out', {
            type: 'string',
            describe:
              'Directory of plan.json, plan.md and plan.html (default reports/<scenario-name>/plan/; a shard: its partial plan.json, default reports/<scenario-name>/plan/shard-I-of-N/)',
          }),
      ),
      'the grid points p with p mod N = I (every seed of each; with --out, else into reports/<scenario-name>/plan/shard-I-of-N/) and write a partial plan.json for `loadlab plan merge`',
    ).epilog(
      "Exit codes: 0 a recommendation (or a shard's partial plan written), 99 no point meets the SLOs, 2 bad input, 1 runtime error. docs/plan.md explains plan.md and sharding.",
    ),
  handler: async (a) => {
    await planCommand(a);
  },
};

export const planCommandModule: CommandModule = {
  ...COMMANDS.plan,
  builder: (y) => y.command(planMergeCommandModule).command(planSweepModule),
  handler: () => undefined,
};
