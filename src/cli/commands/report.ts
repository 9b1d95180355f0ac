/**
 * `loadlab report PATH`: renders a stored run again — report.md, report.html and metrics.om next
 * to its report.json, or under `--out` — with the same bytes `loadlab run` wrote (cli/report-files.ts
 * renders both from report.json's text). metrics.om's time 0 is `--start-time`, else the instant
 * the run stored (`wallClock.metricsStartMs`, version 3), else run's default. Any RunResult version
 * (1, 2, 3) renders. The JUnit file only with `--junit FILE`.
 */
import { dirname, join } from 'node:path';
import type { CommandModule } from 'yargs';
import { verdict, verdictLines } from '../../report/verdict.js';
import { EXIT } from '../exit-codes.js';
import { REPORT_FILES, writeJunit, writeRenderedReports } from '../report-files.js';
import { readStoredRun } from '../report-input.js';
import { defaultStartTime, parseStartTime } from '../start-time.js';
import { COMMANDS } from './catalog.js';

export interface ReportArgs {
  path: string;
  out?: string;
  'start-time'?: string;
  junit?: string;
}

export function reportCommand(a: ReportArgs): number {
  const startTime = a['start-time'] === undefined ? undefined : parseStartTime(a['start-time']);
  const { file, result: r } = readStoredRun(a.path);
  const stored = r.wallClock?.metricsStartMs;
  const startMs = startTime ?? (typeof stored === 'number' ? stored : defaultStartTime(r.elapsedMs));
  const dir = a.out ?? dirname(file);
  writeRenderedReports(dir, r, startMs);
  if (a.junit) writeJunit(a.junit, r);
  const from =
    startTime !== undefined ? '--start-time' : typeof stored === 'number' ? 'as the run stored it' : "not stored in this report: now minus the run's length";
  process.stdout.write(
    `${[
      ...verdictLines(verdict(r)),
      `loadlab report ${r.scenario.name}: version ${r.version} report ${file}`,
      `  wrote: ${[REPORT_FILES.md, REPORT_FILES.html, REPORT_FILES.metrics].map((f) => join(dir, f)).join(', ')}${a.junit ? `, ${a.junit}` : ''}`,
      `  metrics: ${new Date(startMs).toISOString()} to ${new Date(startMs + r.elapsedMs).toISOString()} (start ${from})`,
    ].join('\n')}\n`,
  );
  return EXIT.OK;
}

export const reportCommandModule: CommandModule<object, ReportArgs> = {
  ...COMMANDS.report,
  builder: (y) =>
    y
      .positional('path', { type: 'string', demandOption: true, describe: 'A report.json, or a run directory holding one (any RunResult version: 1, 2 or 3)' })
      .option('out', { type: 'string', describe: 'Write the files here (default: next to the report.json)' })
      .option('start-time', {
        type: 'string',
        describe:
          "Real instant of time 0 in metrics.om: ISO-8601 with a zone or epoch ms. Default: the instant the run used (stored in report.json since version 3), so the file comes out byte-identical; for older reports, now minus the run's length, as `loadlab run` does",
      })
      .option('junit', { type: 'string', describe: 'Also write the thresholds as JUnit XML to this file' })
      .example('$0 report reports/steady-mix', 'rebuild report.md, report.html and metrics.om in that directory')
      .example('$0 report old/report.json --out /tmp/again --start-time 2024-05-01T12:00:00Z', 'render elsewhere, metrics.om starting at that instant'),
  handler: (a) => {
    reportCommand(a);
  },
};
