/**
 * `loadlab merge DIR... --out DIR`: joins the results of shards (`loadlab run --shard I/N`) into
 * one, as if one machine had run the whole scenario (report/merge/merge-runs.ts), writes
 * report.json, report.md, report.html and metrics.om, prints the verdict and exits like `run`:
 * 0, 99 when a threshold fails on the merged run, 1 when it is INVALID, 2 for inputs that are
 * not shards of one run (the message names both inputs and the field).
 *
 * Each input is a directory (or its result file); the kind of result it holds picks the merge:
 * report.json → run results. Every input must be of the same kind.
 */
import { existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { CommandModule } from 'yargs';
import { mergeRuns } from '../../report/merge/merge-runs.js';
import { parseRunResult, renderJson } from '../../report/render-json.js';
import type { RunResult } from '../../report/run-result.js';
import { verdict, verdictLines } from '../../report/verdict.js';
import { planMergeCommand } from './plan-merge.js';
import { CliError, EXIT } from '../exit-codes.js';
import { REPORT_FILES, writeJunit, writeRenderedReports } from '../report-files.js';
import { readStoredRun } from '../report-input.js';
import { appendStepSummary, exitWithVerdict } from '../verdict-exit.js';
import { COMMANDS } from './catalog.js';

export interface MergeArgs {
  dirs: string[];
  out?: string;
  junit?: string;
}

/** The result files `merge` knows, by the kind of result they hold. */
const RESULT_FILES = { run: REPORT_FILES.json, plan: 'plan.json' } as const;
type ResultKind = keyof typeof RESULT_FILES;

/** Which kind of result PATH holds: a directory with one of RESULT_FILES, or such a file itself. */
export function resultKindOf(path: string): ResultKind {
  if (!existsSync(path)) throw new CliError(`${path}: no such file or directory (give a shard's result directory)`, EXIT.USAGE);
  const kinds = Object.keys(RESULT_FILES) as ResultKind[];
  const found = statSync(path).isDirectory()
    ? kinds.find((k) => existsSync(join(path, RESULT_FILES[k])))
    : kinds.find((k) => basename(path) === RESULT_FILES[k]);
  if (!found) throw new CliError(`${path}: holds neither ${RESULT_FILES.run} nor ${RESULT_FILES.plan} (give a shard's result directory)`, EXIT.USAGE);
  return found;
}

function summary(r: RunResult & { shard: { count: number; indices: number[] } }, inputs: number, dir: string): string {
  const ops = Object.entries(r.operations).map(([op, o]) => `${op} ${o.requests} (429: ${o.byStatus['429'] ?? 0}, p99 ${o.responseMs.summary.p99} ms)`);
  const failed = r.thresholds.filter((t) => !t.ok);
  const { count, indices } = r.shard;
  return [
    ...verdictLines(verdict(r)),
    `loadlab merge ${r.scenario.name}: ${inputs} input${inputs > 1 ? 's' : ''}, shards ${indices.join(', ')} of ${count}${indices.length < count ? ` (${count - indices.length} missing: a partial run)` : ''}, seed ${r.scenario.seed}, ${(r.elapsedMs / 1000).toFixed(0)} s`,
    `  requests: ${ops.join('; ') || 'none'}`,
    `  jobs: ${r.jobs.accepted} accepted; ${
      Object.entries(r.jobs.outcomes ?? r.jobs.finalStatus)
        .map(([k, v]) => `${k} ${v}`)
        .join(', ') || 'none ended'
    }`,
    ...(r.thresholds.length
      ? [
          `  thresholds on the merged run: ${r.thresholds.length - failed.length}/${r.thresholds.length} passed${failed.length ? `; failed: ${failed.map((t) => `${t.expr} (got ${t.value ?? 'no data'})`).join(', ')}` : ''}`,
        ]
      : []),
    `  report: ${join(dir, REPORT_FILES.md)}`,
  ].join('\n');
}

function mergeRunDirs(a: MergeArgs): number {
  const inputs = a.dirs.map((d) => ({ name: d, result: readStoredRun(d).result }));
  // A MergeError (inputs that are not shards of one run) ends the command with exit 2 (exit-codes.ts).
  const merged = mergeRuns(inputs);
  const dir = a.out ?? join('reports', 'merged', merged.scenario.name);
  mkdirSync(dir, { recursive: true });
  const json = renderJson(merged);
  writeFileSync(join(dir, REPORT_FILES.json), json);
  // Rendered from report.json's text, as `run` and `report` do: `loadlab report DIR` gives the same bytes.
  const stored = parseRunResult(json);
  writeRenderedReports(dir, stored, merged.wallClock!.metricsStartMs!);
  if (a.junit) writeJunit(a.junit, stored);
  appendStepSummary(stored);
  process.stdout.write(`${summary(merged, inputs.length, dir)}\n`);
  const v = verdict(stored);
  // A shard stopped by Ctrl-C makes the merged run INVALID, but the merge itself was not interrupted: exit 1, not 130.
  if (v.invalid === 'interrupted') throw new CliError(`the merged run is INVALID: a shard was ${v.cause}`, EXIT.RUNTIME_ERROR);
  exitWithVerdict(v);
  return EXIT.OK;
}

export async function mergeCommand(a: MergeArgs): Promise<number> {
  const kinds = a.dirs.map((d) => [d, resultKindOf(d)] as const);
  const other = kinds.find(([, k]) => k !== kinds[0]![1]);
  if (other) throw new CliError(`${kinds[0]![0]} holds a ${kinds[0]![1]} result and ${other[0]} a ${other[1]} result: merge results of one kind`, EXIT.USAGE);
  const kind = kinds[0]![1];
  // Partial plans (`plan --shard`) join as `loadlab plan merge` joins them.
  if (kind === 'plan') return planMergeCommand({ inputs: a.dirs, ...(a.out !== undefined ? { out: a.out } : {}) });
  return mergeRunDirs(a);
}

export const mergeCommandModule: CommandModule<object, MergeArgs> = {
  ...COMMANDS.merge,
  builder: (y) =>
    y
      .positional('dirs', {
        type: 'string',
        array: true,
        demandOption: true,
        describe: 'Result directories of the shards (each holding report.json), or earlier merges of some of them',
      })
      .option('out', { type: 'string', describe: 'Write report.json, report.md, report.html and metrics.om here (default reports/merged/<scenario-name>/)' })
      .option('junit', { type: 'string', describe: "Also write the merged run's thresholds as JUnit XML to this file" })
      .example('$0 merge reports/shard-0 reports/shard-1 reports/shard-2 --out reports/merged', 'one report of three shards')
      .epilog(
        [
          'The inputs must be shards of one run: the same scenario name, endpoint, durationMs, seed and shard count, each shard once; otherwise exit 2 naming the two inputs and the field. Any order or grouping of the inputs gives the same bytes (merge A B C = merge (merge A B) C).',
          "Counters add and HDR histograms merge exactly, per window too; each shard's windows are placed on the wall clock from its start (--start-at, else its start time), to the nearest window. Headroom peaks and the endpoint over time are approximate: docs/merge.md.",
          "The scenario's thresholds are judged on the merged run: exit 99 when one fails there, even if every shard passed it alone.",
        ].join('\n\n'),
      ),
  handler: async (a) => {
    await mergeCommand(a);
  },
};
