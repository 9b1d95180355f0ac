/**
 * `loadlab compare A B`: two stored runs (report.json files or run directories) side by side.
 * Writes compare.md and compare.html under `--out` (default reports/compare/), prints a short
 * summary, and with `--fail-on-regression PCT` exits 99 naming every gated metric that got worse
 * by more than PCT percent (report/compare/regression.ts has the rule and its floors).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CommandModule } from 'yargs';
import { compareCharts } from '../../report/compare/compare-charts.js';
import { compareRuns } from '../../report/compare/compare.js';
import type { Comparison } from '../../report/compare/comparison.js';
import { formatChange } from '../../report/compare/format.js';
import { regressions, type Regression } from '../../report/compare/regression.js';
import { renderCompareHtml } from '../../report/compare/render-compare-html.js';
import { renderCompareMarkdown } from '../../report/compare/render-compare-md.js';
import { CliError, EXIT } from '../exit-codes.js';
import { readStoredRun } from '../report-input.js';
import { COMMANDS } from './catalog.js';

export const DEFAULT_COMPARE_DIR = join('reports', 'compare');

export interface CompareArgs {
  a: string;
  b: string;
  out?: string;
  'fail-on-regression'?: number;
}

function checkPct(p: number | undefined): void {
  if (p === undefined) return;
  if (!(Number.isFinite(p) && p >= 0))
    throw new CliError(`--fail-on-regression: a percentage >= 0 (e.g. 10), got ${Number.isNaN(p) ? 'something that is not a number' : String(p)}`, EXIT.USAGE);
}

const rowsOf = (c: Comparison) => [...c.operations, ...c.flows].flatMap((g) => g.rows).concat(c.totals);

function summary(c: Comparison, files: string[], reg: Regression[] | undefined, pct: number | undefined): string {
  const judged = rowsOf(c).filter((r) => r.better !== 'neither' && r.direction !== 'n/a');
  const count = (d: string) => judged.filter((r) => r.direction === d).length;
  const worst = c.totals.filter((r) => r.direction === 'worse').map(formatChange);
  return [
    `loadlab compare: A ${c.a.scenario} (${c.a.file}) vs B ${c.b.scenario} (${c.b.file})`,
    ...c.warnings.map((w) => `  warning: ${w}`),
    `  B against A: ${count('better')} better, ${count('worse')} worse, ${count('same')} the same (of ${judged.length} metrics with a better direction)`,
    ...(worst.length ? [`  worse over the whole run: ${worst.join('; ')}`] : []),
    ...(pct === undefined ? [] : [reg!.length ? `  regressions beyond ${pct} %: ${reg!.length} (listed below)` : `  no regression beyond ${pct} %`]),
    `  compare: ${files.join(', ')}`,
  ].join('\n');
}

export function compareCommand(a: CompareArgs): number {
  const pct = a['fail-on-regression'];
  checkPct(pct);
  const [ra, rb] = [readStoredRun(a.a), readStoredRun(a.b)];
  const c = compareRuns(ra, rb);
  const opts = pct === undefined ? {} : { failOnRegression: pct };
  const dir = a.out ?? DEFAULT_COMPARE_DIR;
  mkdirSync(dir, { recursive: true });
  const files = [join(dir, 'compare.md'), join(dir, 'compare.html')];
  writeFileSync(files[0]!, renderCompareMarkdown(c, opts));
  writeFileSync(files[1]!, renderCompareHtml(c, opts, compareCharts(ra.result, rb.result)));
  const reg = pct === undefined ? undefined : regressions(c, pct);
  process.stdout.write(`${summary(c, files, reg, pct)}\n`);
  if (reg?.length) {
    throw new CliError(
      `${reg.length} metric${reg.length > 1 ? 's' : ''} regressed by more than ${pct} %:\n${reg.map((x) => `  ${x.where}: ${formatChange(x.row)}`).join('\n')}`,
      EXIT.THRESHOLD_FAILED,
    );
  }
  return EXIT.OK;
}

export const compareCommandModule: CommandModule<object, CompareArgs> = {
  ...COMMANDS.compare,
  builder: (y) =>
    y
      .positional('a', { type: 'string', demandOption: true, describe: 'The base run: a report.json or a run directory holding one' })
      .positional('b', { type: 'string', demandOption: true, describe: 'The run compared with it: a report.json or a run directory holding one' })
      .option('out', { type: 'string', describe: `Write compare.md and compare.html here (default ${DEFAULT_COMPARE_DIR}/)` })
      .option('fail-on-regression', {
        type: 'number',
        describe:
          'Exit 99 when B is worse than A by more than this percentage in any response-time p50/p95/p99 (per operation), turnaround or queue-delay p50/p95/p99 (per flow), 429 rate or error rate — and by at least 1 ms or 0.1 percentage point (from a base of 0, that floor alone). Lists the metrics that regressed',
      })
      .example('$0 compare reports/before reports/after', 'compare two run directories')
      .example('$0 compare main/report.json pr/report.json --fail-on-regression 10', 'CI: exit 99 if anything got more than 10 % worse'),
  handler: (a) => {
    compareCommand(a);
  },
};
