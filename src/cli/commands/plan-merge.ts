/**
 * `loadlab plan merge DIR... --out DIR`: joins the partial plans of `loadlab plan --shard I/N`
 * (each DIR holds one shard's plan.json, or DIR is that file) into the plan.json, plan.md and
 * plan.html a single `loadlab plan` of the same scenario and flags writes, byte for byte
 * (plan/merge-plans.ts). Exit 0 with a recommendation, 99 when no point meets the SLOs, 2 when an
 * input is unreadable, not a partial plan, or the inputs are not every shard of one plan exactly
 * once (the message names the inputs and the field).
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { CommandModule } from 'yargs';
import { mergePartialPlans, type NamedPartial } from '../../plan/merge-plans.js';
import { parsePartialPlan } from '../../plan/partial-plan.js';
import { buildPlan } from '../../plan/plan-result.js';
import { planInputsOf } from '../../plan/plan-spec.js';
import { CliError, EXIT } from '../exit-codes.js';
import { plural, recommendationLines, writeWholePlan } from './plan-write.js';

export interface PlanMergeArgs {
  inputs: string[];
  out?: string;
}

const bad = (m: string) => new CliError(`plan merge: ${m}`, EXIT.USAGE);

/** The partial plan an input names: DIR/plan.json, or the file itself. */
function readPartial(input: string): NamedPartial & { file: string } {
  if (!existsSync(input)) throw bad(`${input}: no such file or directory (give the directory of a shard's plan.json)`);
  const file = statSync(input).isDirectory() ? join(input, 'plan.json') : input;
  if (!existsSync(file)) throw bad(`${input}: a directory without plan.json (give the directory of a shard's plan.json)`);
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw bad(`${file}: not JSON (${(e as Error).message})`);
  }
  const plan = parsePartialPlan(raw);
  if (typeof plan === 'string') throw bad(`${file}: ${plan}`);
  return { name: input, file, plan };
}

export async function planMergeCommand(a: PlanMergeArgs): Promise<number> {
  const ins = a.inputs.map(readPartial);
  if (a.out !== undefined) {
    const clash = ins.find((x) => resolve(x.file) === resolve(a.out!, 'plan.json'));
    if (clash) throw bad(`--out ${a.out}: holds the input ${clash.name}, which the merged plan.json would overwrite; choose another directory`);
  }
  const m = mergePartialPlans(ins);
  if (!m.ok) throw bad(m.message);
  const plan = buildPlan(planInputsOf(m.spec, m.slos), m.outcome);
  const dir = a.out ?? join('reports', m.spec.scenario.name, 'plan');
  writeWholePlan(dir, plan, m.scenario);
  const count = ins[0]!.plan.shard.count;
  const rec = plan.recommendation;
  process.stdout.write(
    [
      ...recommendationLines(plan),
      `  merged ${plural(count, 'shard')} from ${plural(ins.length, 'input')}: ${plural(plan.rows.length, 'point')} × ${plural(m.spec.seeds.length, 'seed')} in the plan`,
      `  plan: ${join(dir, 'plan.md')}`,
      '',
    ].join('\n'),
  );
  if (rec.workersMax === null) throw new CliError(`no point meets the SLOs: ${rec.reason}`, EXIT.THRESHOLD_FAILED);
  return EXIT.OK;
}

export const planMergeCommandModule: CommandModule<object, PlanMergeArgs> = {
  command: 'merge <inputs..>',
  describe: 'Join the partial plans of `loadlab plan --shard I/N` into the plan one machine would write (plan.json, plan.md, plan.html, byte for byte)',
  builder: (y) =>
    y
      .positional('inputs', {
        type: 'string',
        array: true,
        demandOption: true,
        describe: "Directories holding one shard's plan.json each (or the files), every shard once, in any order",
      })
      .option('out', { type: 'string', describe: 'Directory of the merged plan.json, plan.md and plan.html (default reports/<scenario-name>/plan/)' })
      .epilog(
        "Exit codes: 0 a recommendation, 99 no point meets the SLOs, 2 bad input (an input not a shard's plan.json, shards of different plans, a shard missing or given twice), 1 runtime error.",
      ),
  handler: async (a) => {
    await planMergeCommand(a);
  },
};
