/** A route's lookup of the `{job_id}` in its path. */
import type { ReadonlyJob } from '../sim/job.js';
import { apiError } from './errors.js';
import type { RouteContext } from './types.js';

/** The job named in the path, or answers 404 and returns undefined. */
export function jobOr404(ctx: RouteContext): ReadonlyJob | undefined {
  const j = ctx.jobId === undefined ? undefined : ctx.ep.jobs.get(ctx.jobId);
  if (!j) ctx.respond(apiError('API_ERR_JOB_NOT_FOUND', `job ${ctx.jobId ?? ''} not found (unknown or expired)`));
  return j;
}
