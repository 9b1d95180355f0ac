/**
 * `loadlab plan SCENARIO` (CONTRACT §6): sweeps workersMax over seeds on the embedded simulator,
 * checks the SLOs (plan/slo.ts), recommends the smallest workersMax meeting every SLO on every
 * seed (with `--grid`, the cheapest point), and writes plan.json, plan.md and plan.html (charts,
 * then plan.md's tables) under `--out`. Exit 0 with a recommendation, 99 when no point meets the
 * SLOs, 2 on bad input (naming the flag or the scenario's file and field).
 */
import { availableParallelism } from 'node:os';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CommandModule } from 'yargs';
import { checkCombinations, combinations, describeKnobs, gridOfScenario, KNOBS, parseGrid, type GridAxis } from '../../plan/grid.js';
import { inlineRunner } from '../../plan/inline-runner.js';
import { mmcInputs } from '../../plan/mmc-reference.js';
import { buildPlan, renderPlanJson } from '../../plan/plan-result.js';
import { renderPlanHtml } from '../../plan/render-plan-html.js';
import { renderPlanMarkdown } from '../../plan/render-plan-md.js';
import { slosOf } from '../../plan/slo.js';
import { sweep } from '../../plan/sweep.js';
import type { SweepBase } from '../../plan/sweep-point.js';
import { threadRunner } from '../../plan/thread-runner.js';
import { DEFAULT_WORKERS_RANGE, parseWorkersRange } from '../../plan/workers-range.js';
import { CliError, EXIT } from '../exit-codes.js';
import { bad, seedsOf, wholeAtLeast, workersMinOf, type PlanArgs } from './plan-flags.js';
import { priceOptions, pricesOf } from './price-flags.js';
import { loadOrExit } from './run.js';

export async function planCommand(a: PlanArgs): Promise<number> {
  // Flags first (a bad flag is named before the scenario is read), then the scenario's plan: section.
  const flagRange = a['workers-max'] === undefined ? undefined : parseWorkersRange(a['workers-max']);
  if (typeof flagRange === 'string') throw bad(`--workers-max: ${flagRange}`);
  const flagSeeds = a.seeds === undefined ? undefined : wholeAtLeast('seeds', a.seeds, 1, 3);
  const jobs = wholeAtLeast('jobs', a.jobs, 1, availableParallelism());
  const flagAxes = parseGrid(a.grid ?? []);
  if (typeof flagAxes[0] === 'string') throw bad(`bad grid (${flagAxes.length} problem${flagAxes.length > 1 ? 's' : ''}):\n${(flagAxes as string[]).map((p) => `  ${p}`).join('\n')}`);
  const sc = loadOrExit(a.scenario);
  // The scenario's plan.workersMax was checked when it loaded.
  const range = flagRange ?? (parseWorkersRange(sc.plan?.workersMax ?? DEFAULT_WORKERS_RANGE) as number[]);
  const nSeeds = flagSeeds ?? sc.plan?.seeds ?? 3;
  const prices = pricesOf(a, sc.plan?.gpu, `${a.scenario}: plan.gpu`);
  const slos = slosOf(sc, a.slo ?? []);
  if (Array.isArray(slos)) throw bad(`bad SLO (${slos.length} problem${slos.length > 1 ? 's' : ''}):\n${slos.map((p) => `  ${p}`).join('\n')}`);
  if (!slos.list.length) throw bad(`${a.scenario}: slo: no SLOs to plan for: add an slo: list (or thresholds:) to the scenario, or give --slo EXPR`);
  const axes = a.grid?.length ? (flagAxes as GridAxis[]) : gridOfScenario(sc.plan?.grid);
  const lines = combinations(axes);
  const gridProblems = checkCombinations(sc.endpoint, lines, a.grid?.length ? '--grid' : `${a.scenario}: plan.grid`);
  if (gridProblems.length) throw bad(`bad grid for ${a.scenario} (${gridProblems.length} problem${gridProblems.length > 1 ? 's' : ''}):\n${gridProblems.map((p) => `  ${p}`).join('\n')}`);
  const workersMin = workersMinOf(a['workers-min'], sc.endpoint.workersMin);
  const seed = a.seed ?? sc.seed;
  const seeds = seedsOf(typeof seed === 'string' && /^-?\d+$/.test(seed) ? Number(seed) : seed, nSeeds);

  const base: SweepBase = { scenario: sc, slos: slos.list.map((t) => t.expr), workersMin };
  const threads = Math.min(jobs, lines.length * range.length * nSeeds);
  const runner = threads > 1 ? threadRunner(base, threads) : inlineRunner(base);
  const tty = process.stderr.isTTY === true && !process.env.CI;
  const wallStart = performance.now();
  let outcome;
  try {
    outcome = await sweep(runner, {
      workers: range, seeds, lines, exhaustive: a.exhaustive === true, concurrency: threads,
      onRun: tty ? (done) => process.stderr.write(`\r  plan: ${done} runs done (at most ${lines.length * range.length * nSeeds})  `) : undefined,
    });
  } finally {
    await runner.close();
  }
  if (tty) process.stderr.write('\r\x1b[K');
  const wallMs = performance.now() - wallStart;

  const plan = buildPlan({
    scenario: { name: sc.name, file: a.scenario, durationMs: sc.durationMs },
    slos, range, grid: axes.length > 0, workersMin, seeds, exhaustive: a.exhaustive === true, mmc: mmcInputs(sc), ...(prices ? { prices } : {}),
  }, outcome);
  const dir = a.out ?? join('reports', sc.name, 'plan');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'plan.json'), renderPlanJson(plan));
  writeFileSync(join(dir, 'plan.md'), renderPlanMarkdown(plan, sc));
  writeFileSync(join(dir, 'plan.html'), renderPlanHtml(plan, sc));

  const runs = outcome.lines.flatMap((l) => l.points.flat());
  const requests = runs.reduce((n, r) => n + r.figures.requests, 0);
  const jobsDone = runs.reduce((n, r) => n + r.figures.jobsAccepted, 0);
  const rec = plan.recommendation;
  process.stdout.write([
    rec.workersMax === null ? `NO RECOMMENDATION: ${rec.reason}` : `RECOMMENDATION: workersMax ${rec.workersMax}${rec.knobs && Object.keys(rec.knobs).length ? ` with ${describeKnobs(rec.knobs)}` : ''}`,
    ...(rec.workersMax !== null ? [`  ${rec.reason}`] : []),
    ...(rec.cost ? [`  cost: $${rec.cost.perHour.toFixed(4)} per hour, ${rec.cost.per1000Jobs === null ? 'no jobs completed' : `$${rec.cost.per1000Jobs.toFixed(4)} per 1000 jobs`}`] : []),
    ...(rec.erlangC.workersMax !== null ? [`  Erlang C (M/M/c) for the queue-delay SLOs: ${rec.erlangC.workersMax}`] : []),
    ...(plan.paretoFront ? [`  Pareto front (cost vs SLOs): ${plan.paretoFront.map((f) => `workersMax ${f.workersMax}${Object.keys(f.knobs).length ? ` (${describeKnobs(f.knobs)})` : ''}`).join('; ')}`] : []),
    `  ${plural(runs.length, 'run')} (${plural(plan.rows.length, 'point')} × ${plural(nSeeds, 'seed')}${lines.length === 1 && outcome.lines[0]!.stoppedAfter !== null ? `, stopped early after workersMax ${outcome.lines[0]!.stoppedAfter}` : ''}), ${jobsDone} jobs, ${requests} requests in ${(wallMs / 1000).toFixed(1)} s wall on ${threads} thread${threads > 1 ? 's' : ''}`,
    `  plan: ${join(dir, 'plan.md')}`,
    '',
  ].join('\n'));
  if (rec.workersMax === null) throw new CliError(`no point meets the SLOs: ${rec.reason}`, EXIT.THRESHOLD_FAILED);
  return EXIT.OK;
}

export const planCommandModule: CommandModule<object, PlanArgs> = {
  command: 'plan <scenario>',
  describe: 'Capacity planning: sweep workersMax over seeds on the embedded simulator and recommend the smallest meeting every SLO',
  builder: (y) =>
    priceOptions(y
      .positional('scenario', { type: 'string', demandOption: true, describe: 'Scenario file (YAML or JSON); its slo: list (else its thresholds) are the SLOs' })
      .option('workers-max', { type: 'string', describe: `workersMax values to sweep, FROM..TO (default: the scenario's plan.workersMax, else ${DEFAULT_WORKERS_RANGE})` })
      .option('workers-min', { type: 'string', describe: 'workersMin at every point: a number (capped at the point\'s workersMax) or "max" (every worker always on, warm). Default: the scenario\'s' })
      .option('seeds', { type: 'number', describe: 'Seeds per point; a point meets the SLOs only if every seed does (default: the scenario\'s plan.seeds, else 3)' })
      .option('seed', { type: 'string', describe: 'First seed; the others follow it (default: the scenario\'s)' })
      .option('slo', { type: 'string', array: true, describe: 'An SLO in the threshold grammar, e.g. "turnaround_p95_ms < 30000"; repeat for more. Replaces the scenario\'s slo: list' })
      .option('jobs', { type: 'number', describe: 'Points run at once, on worker threads (default: the core count); plan.json is the same whatever N' })
      .option('exhaustive', { type: 'boolean', describe: 'Run every point; by default the sweep stops once a point and the next two meet every SLO on every seed' })
      .option('out', { type: 'string', describe: 'Directory of plan.json, plan.md and plan.html (default reports/<scenario-name>/plan/)' })
      .option('grid', { type: 'string', array: true, describe: `Also sweep an endpoint knob: KNOB=V1,V2,… (repeat for more; every combination runs; replaces the scenario's plan.grid). Knobs: ${KNOBS.join(', ')}; flashBoot takes off or a restart time in ms. The recommendation is then the cheapest point meeting every SLO, and plan.json has the cost-vs-SLO Pareto front` }))
      .epilog('Exit codes: 0 a recommendation, 99 no point meets the SLOs, 2 bad input, 1 runtime error. docs/plan.md explains plan.md.'),
  handler: async (a) => {
    await planCommand(a);
  },
};

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}
