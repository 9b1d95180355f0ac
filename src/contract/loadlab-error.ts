/**
 * The one base of loadlab's own errors, as undici's errors.js: each error has a stable `code` (what
 * callers and tests branch on; the message may change) and a message for the user. The CLI turns
 * a code into its exit code in one table (cli/exit-codes.ts); docs/errors.md lists the codes.
 *
 * The HTTP answers of the API and of `loadlab serve` are not thrown: their codes are tables of
 * their own (api/errors.ts, server/errors.ts, api/openai-errors.ts).
 */

/** Every code a LoadlabError carries, and what it means. */
export const LOADLAB_ERROR_CODES = {
  LOADLAB_ERR_USAGE: 'bad usage or invalid input: a flag, a file, a scenario or config; nothing was sent',
  LOADLAB_ERR_RUNTIME: 'the command failed while running (a target that could not be reached, a write that failed), or the run was INVALID',
  LOADLAB_ERR_THRESHOLD: 'a threshold failed (compare: a regression beyond --fail-on-regression)',
  LOADLAB_ERR_INTERRUPTED: 'the run was stopped by Ctrl-C (SIGINT) or SIGTERM',
  LOADLAB_ERR_MERGE: 'results that are not shards of one run cannot be merged',
  LOADLAB_ERR_BAD_REPORT: 'a report.json this loadlab cannot read',
  LOADLAB_ERR_LOCKSTEP: 'the lockstep server stopped following the run',
  LOADLAB_ERR_WEBHOOK_ADDRESS: 'a webhook URL resolved to an address serve may not call',
  ERLANG_ERR_SERVERS: 'Erlang C: the number of servers is not a whole number >= 1',
  ERLANG_ERR_RATE: 'Erlang C: a rate is not finite and > 0',
  ERLANG_ERR_UNSTABLE: 'Erlang C: utilisation >= 1, the queue grows without bound',
  LOADLAB_ERR_INTERNAL: 'a bug in loadlab: an internal invariant broke',
} as const;

export type LoadlabErrorCode = keyof typeof LOADLAB_ERROR_CODES;

export class LoadlabError extends Error {
  constructor(
    readonly code: LoadlabErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = new.target.name;
  }
}

/**
 * An internal invariant broke: a bug in loadlab, never the user's input. The CLI prints its stack
 * (exit 1) so that it can be reported.
 */
export class InternalError extends LoadlabError {
  constructor(message: string) {
    super('LOADLAB_ERR_INTERNAL', message);
  }
}

/** A report.json that is not one this loadlab reads (its top level, version or a field). */
export class ReportFormatError extends LoadlabError {
  constructor(message: string) {
    super('LOADLAB_ERR_BAD_REPORT', message);
  }
}
