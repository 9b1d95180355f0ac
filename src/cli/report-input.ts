/**
 * A stored run named on the command line (`loadlab report PATH`, `loadlab compare A B`): a
 * report.json, or a run directory holding one. Every problem is a CliError (exit 2) naming the
 * file and the reason.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parseRunResult } from '../report/render-json.js';
import type { RunResult } from '../report/run-result.js';
import { CliError, EXIT } from './exit-codes.js';
import { REPORT_FILES } from './report-files.js';

export interface StoredRun {
  /** The report.json read. */
  file: string;
  result: RunResult;
}

/** The report.json that PATH names: PATH itself, or PATH/report.json for a directory. */
export function reportFileOf(path: string): string {
  if (!existsSync(path)) throw new CliError(`${path}: no such file or directory (give a report.json or a run directory holding one)`, EXIT.USAGE);
  if (!statSync(path).isDirectory()) return path;
  const file = join(path, REPORT_FILES.json);
  if (!existsSync(file))
    throw new CliError(`${path}: a directory without ${REPORT_FILES.json} (give a report.json or a run directory holding one)`, EXIT.USAGE);
  return file;
}

export function readStoredRun(path: string): StoredRun {
  const file = reportFileOf(path);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new CliError(`${file}: cannot read it (${(e as Error).message})`, EXIT.USAGE);
  }
  try {
    return { file, result: parseRunResult(text) };
  } catch (e) {
    if (e instanceof SyntaxError) throw new CliError(`${file}: not JSON (${e.message})`, EXIT.USAGE);
    throw new CliError(`${file}: ${(e as Error).message}`, EXIT.USAGE);
  }
}
