/**
 * `loadlab calibrate RUN_DIR [--out DIR] [--scenario FILE]`: fits the endpoint from a run against
 * it (calibrate/calibration.ts) and writes calibrated.yaml (the run's scenario with the fitted
 * endpoint, for `loadlab plan`), calibration.json, calibration.md and calibration.html. A run
 * that saw no endpoint of its own (in-process, merged, older reports) or no completed job is a
 * usage error (exit 2) saying why.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import type { CommandModule } from 'yargs';
import { calibrate } from '../../calibrate/calibration.js';
import { calibratedScenario } from '../../calibrate/calibrated-scenario.js';
import { renderCalibrationHtml } from '../../calibrate/render-calibration-html.js';
import { renderCalibrationMarkdown } from '../../calibrate/render-calibration-md.js';
import { llmSummary } from '../../calibrate/llm-summary.js';
import { loadScenarioFile, formatIssue } from '../../load/scenario/loader.js';
import type { ObservedEndpoint, RunResult } from '../../report/run-result.js';
import { CliError, EXIT } from '../exit-codes.js';
import { readStoredRun } from '../report-input.js';
import { COMMANDS } from './catalog.js';

export interface CalibrateArgs {
  run_dir: string;
  out?: string;
  scenario?: string;
}

export const CALIBRATION_FILES = { scenario: 'calibrated.yaml', json: 'calibration.json', md: 'calibration.md', html: 'calibration.html' } as const;

export function calibrateCommand(a: CalibrateArgs): number {
  const { file, result } = readStoredRun(a.run_dir);
  const r = observedRun(file, result);
  const scenarioFile = scenarioOf(file, r, a.scenario);
  const fit = calibrate(r);
  const c = fit.calibration;
  const dir = a.out ?? dirname(file);
  mkdirSync(dir, { recursive: true });
  const paths = Object.fromEntries(Object.entries(CALIBRATION_FILES).map(([k, f]) => [k, join(dir, f)])) as Record<keyof typeof CALIBRATION_FILES, string>;
  writeFileSync(paths.scenario, calibratedScenario(readFileSync(scenarioFile, 'utf8'), c, dirname(file)));
  writeFileSync(paths.json, `${JSON.stringify(c, null, 2)}\n`);
  writeFileSync(paths.md, renderCalibrationMarkdown(fit));
  writeFileSync(paths.html, renderCalibrationHtml(fit));
  const d = (q: typeof c.jobDurationMs): string =>
    q.model === 'none' ? 'nothing to fit' : `${q.model}, p50 ${q.p50} ms, p95 ${q.p95} ms, ${q.samples} samples${q.trusted ? '' : ' (too few to trust)'}`;
  process.stdout.write(
    `${[
      `loadlab calibrate ${r.scenario.name}: ${file}`,
      `  jobDurationMs: ${d(c.jobDurationMs)}`,
      `  coldStartMs:   ${d(c.coldStartMs)}`,
      `  idleTimeoutMs: ${c.idleTimeoutMs.value ?? 'nothing to fit'}${c.idleTimeoutMs.value !== undefined ? ` (${c.idleTimeoutMs.matched} stops matched${c.idleTimeoutMs.trusted ? '' : ', too few to trust'})` : ''}`,
      `  workersMax:    ${c.workersMax.value ?? 'no /health answers'}${c.workersMax.value !== undefined && !c.workersMax.reached ? ' (most seen; the queue never waited there)' : ''}`,
      ...llmSummary(c),
      `  wrote: ${Object.values(paths).join(', ')}`,
      `  next: loadlab plan ${paths.scenario}`,
    ].join('\n')}\n`,
  );
  return EXIT.OK;
}

/** The run, if it has something to fit; else a CliError saying why. */
function observedRun(file: string, r: RunResult): RunResult & { observed: ObservedEndpoint } {
  if (r.target.kind !== 'http') {
    throw new CliError(
      `${file}: a run on the ${r.target.kind === 'in-process' ? 'embedded simulator' : `${r.target.kind} target`}: nothing to fit (its endpoint is the scenario's own). Calibrate a run against your endpoint: loadlab run SCENARIO --target URL`,
      EXIT.USAGE,
    );
  }
  if (r.observed === undefined) {
    throw new CliError(
      `${file}: holds no observations of the endpoint (merged shards, or a run by an older loadlab): calibrate one run's directory`,
      EXIT.USAGE,
    );
  }
  if (r.observed.executionMs.count === 0 && !r.observed.streams?.count) {
    throw new CliError(
      `${file}: no completed job with an executionTime and no completed stream was read: nothing to fit (did the run reach the endpoint? see its report.md)`,
      EXIT.USAGE,
    );
  }
  return r as RunResult & { observed: ObservedEndpoint };
}

/** The run's scenario file: --scenario, else the path the run recorded (as given, then beside the run directory). */
function scenarioOf(reportFile: string, r: RunResult, flag: string | undefined): string {
  const named = flag ?? r.scenario.file;
  if (named === undefined) throw new CliError(`${reportFile}: the run did not record its scenario file: give it with --scenario FILE`, EXIT.USAGE);
  const tries = isAbsolute(named) ? [named] : [resolve(named), resolve(dirname(reportFile), named)];
  const found = tries.find((f) => existsSync(f));
  if (!found)
    throw new CliError(
      `${flag !== undefined ? '--scenario' : `${reportFile}: the run's scenario`} ${named}: not found${flag === undefined ? ' (give it with --scenario FILE)' : ''}`,
      EXIT.USAGE,
    );
  const loaded = loadScenarioFile(found);
  if (!loaded.ok) throw new CliError(loaded.issues.map(formatIssue).join('\n'), EXIT.USAGE);
  return found;
}

export const calibrateCommandModule: CommandModule<object, CalibrateArgs> = {
  ...COMMANDS.calibrate,
  builder: (y) =>
    y
      .positional('run_dir', {
        type: 'string',
        demandOption: true,
        describe: 'The directory of a run against your endpoint (loadlab run … --target URL), or its report.json',
      })
      .option('out', { type: 'string', describe: 'Write calibrated.yaml and calibration.json/.md/.html here (default: the run directory)' })
      .option('scenario', {
        type: 'string',
        describe: "The run's scenario file, when it is no longer where the run read it (default: the path stored in report.json)",
      })
      .example(
        '$0 run scenarios/calibrate-probe.yaml --target https://api.runpod.ai --health-every 1s --out reports/probe',
        'a probe run against your endpoint (API key in RUNPOD_API_KEY)',
      )
      .example('$0 calibrate reports/probe', 'fit it: reports/probe/calibrated.yaml and calibration.md')
      .example('$0 plan reports/probe/calibrated.yaml', 'size workersMax for your own endpoint'),
  handler: (a) => {
    calibrateCommand(a);
  },
};
