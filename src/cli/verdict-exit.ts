/**
 * What a finished run's verdict means for the process: its exit code and, under
 * GitHub Actions, the markdown appended to the job's step summary.
 *
 * - PASS → 0.
 * - FAIL (a threshold failed) → 99.
 * - INVALID because the user interrupted the run (Ctrl-C, SIGTERM) → 130, the shell's code for
 *   SIGINT: the run was stopped, it did not fail.
 * - any other INVALID → 1, both when the target was unreachable and when the load generator fell behind:
 *   the run did not measure the target (nothing got through, or the figures describe the
 *   generator), so it cannot count as a pass; and it is not 99 either, which says "the target
 *   broke a limit". A CI job fails either way; the one-line cause goes to stderr.
 */
import { appendFileSync } from 'node:fs';
import { renderStepSummary } from '../report/render-step-summary.js';
import type { RunResult } from '../report/run-result.js';
import type { Verdict } from '../report/verdict.js';
import { CliError, EXIT, type ExitCode } from './exit-codes.js';

export function exitCodeOf(v: Verdict): ExitCode {
  if (v.invalid === 'interrupted') return EXIT.INTERRUPTED;
  if (v.status === 'INVALID') return EXIT.RUNTIME_ERROR;
  if (v.status === 'FAIL') return EXIT.THRESHOLD_FAILED;
  return EXIT.OK;
}

/** Throws the CliError that ends the command with the verdict's exit code (none for PASS). */
export function exitWithVerdict(v: Verdict): void {
  const code = exitCodeOf(v);
  if (code === EXIT.OK) return;
  throw new CliError(v.status === 'INVALID' ? v.cause! : v.line.replace(/^FAIL: /, 'threshold failed: '), code);
}

/**
 * Appends the run's summary to `$GITHUB_STEP_SUMMARY` when that is set (a file path, as GitHub
 * Actions sets it). `env` is for tests.
 */
export function appendStepSummary(r: RunResult, env: NodeJS.ProcessEnv = process.env): void {
  const file = env.GITHUB_STEP_SUMMARY;
  if (file) appendFileSync(file, renderStepSummary(r));
}
