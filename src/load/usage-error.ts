/**
 * A problem with what the user asked for (a flag, a target, a server not at its start), found
 * while preparing or starting a run: a command reports it as bad usage (exit 2) with this
 * message, without a stack trace.
 */
import { LoadlabError } from '../contract/loadlab-error.js';

export class UsageError extends LoadlabError {
  constructor(message: string) {
    super('LOADLAB_ERR_USAGE', message);
  }
}

/** The lockstep server stopped following the run, or is not a loadlab serve with a manual clock (exit 1). */
export class LockstepError extends LoadlabError {
  constructor(message: string) {
    super('LOADLAB_ERR_LOCKSTEP', message);
  }
}
