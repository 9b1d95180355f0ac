/**
 * A problem with what the user asked for (a flag, a target, a server not at its start), found
 * while preparing or starting a run: a command reports it as bad usage (exit 2) with this
 * message, without a stack trace.
 */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}
