/** Exit codes of every command. */
export const EXIT = {
  OK: 0,
  RUNTIME_ERROR: 1,
  /** Bad usage, or an invalid scenario/config (the message names file, field path and reason). */
  USAGE: 2,
  /** The run finished but a threshold failed; `compare --fail-on-regression` found a regression. */
  THRESHOLD_FAILED: 99,
  /** `run` stopped by Ctrl-C (SIGINT) or SIGTERM: 128 + 2, the shell's code for SIGINT. */
  INTERRUPTED: 130,
} as const;

/** An error that ends a command with a given exit code and a message for the user. */
export class CliError extends Error {
  constructor(message: string, readonly exitCode: number = EXIT.USAGE) {
    super(message);
  }
}
