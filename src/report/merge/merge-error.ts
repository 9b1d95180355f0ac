/**
 * Why a set of run results cannot be merged: the two inputs (as the caller named them, e.g. their
 * directories) and the field that differs. The CLI turns it into exit 2.
 */
import { LoadlabError } from '../../contract/loadlab-error.js';

export class MergeError extends LoadlabError {
  constructor(
    message: string,
    readonly field: string,
  ) {
    super('LOADLAB_ERR_MERGE', message);
  }
}
