/**
 * Exit codes of every command, and the one table that turns an error's code into its exit code:
 * the CLI's top-level handler (main.ts) ends any LoadlabError through `exitCodeOfError`.
 * docs/errors.md explains each.
 */
import { LoadlabError, type LoadlabErrorCode } from '../contract/loadlab-error.js';

export const EXIT = {
  OK: 0,
  /** A runtime error, or a run whose verdict is INVALID (it did not measure the target). */
  RUNTIME_ERROR: 1,
  /** Bad usage, or an invalid scenario/config (the message names file, field path and reason). */
  USAGE: 2,
  /** The run finished but a threshold failed; `compare --fail-on-regression` found a regression. */
  THRESHOLD_FAILED: 99,
  /** `run` stopped by Ctrl-C (SIGINT) or SIGTERM: 128 + 2, the shell's code for SIGINT. */
  INTERRUPTED: 130,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** The exit code of each error code. */
export const EXIT_OF_ERROR: Readonly<Record<LoadlabErrorCode, ExitCode>> = {
  LOADLAB_ERR_USAGE: EXIT.USAGE,
  LOADLAB_ERR_RUNTIME: EXIT.RUNTIME_ERROR,
  LOADLAB_ERR_THRESHOLD: EXIT.THRESHOLD_FAILED,
  LOADLAB_ERR_INTERRUPTED: EXIT.INTERRUPTED,
  LOADLAB_ERR_MERGE: EXIT.USAGE,
  LOADLAB_ERR_BAD_REPORT: EXIT.USAGE,
  LOADLAB_ERR_LOCKSTEP: EXIT.RUNTIME_ERROR,
  LOADLAB_ERR_WEBHOOK_ADDRESS: EXIT.RUNTIME_ERROR,
  ERLANG_ERR_SERVERS: EXIT.USAGE,
  ERLANG_ERR_RATE: EXIT.USAGE,
  ERLANG_ERR_UNSTABLE: EXIT.USAGE,
  LOADLAB_ERR_INTERNAL: EXIT.RUNTIME_ERROR,
};

/** The code a CliError made with an exit code carries. */
const CODE_OF_EXIT: Readonly<Record<Exclude<ExitCode, 0>, LoadlabErrorCode>> = {
  [EXIT.RUNTIME_ERROR]: 'LOADLAB_ERR_RUNTIME',
  [EXIT.USAGE]: 'LOADLAB_ERR_USAGE',
  [EXIT.THRESHOLD_FAILED]: 'LOADLAB_ERR_THRESHOLD',
  [EXIT.INTERRUPTED]: 'LOADLAB_ERR_INTERRUPTED',
};

/** An error that ends a command with a given exit code (bad usage by default) and a message for the user. */
export class CliError extends LoadlabError {
  constructor(message: string, exitCode: Exclude<ExitCode, 0> = EXIT.USAGE) {
    super(CODE_OF_EXIT[exitCode], message);
  }

  get exitCode(): ExitCode {
    return EXIT_OF_ERROR[this.code];
  }
}

/** The exit code an error ends the CLI with: its code's for a LoadlabError, else 1 (runtime error). */
export function exitCodeOfError(e: unknown): ExitCode {
  return e instanceof LoadlabError ? EXIT_OF_ERROR[e.code] : EXIT.RUNTIME_ERROR;
}
