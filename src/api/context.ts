import type { Endpoint } from '../sim/endpoint.js';
import type { Job } from '../sim/job.js';
import type { Simulator } from '../sim/simulator.js';
import { apiError } from './errors.js';
import type { ApiRequest, Respond } from './types.js';

/** What a route handler gets: the endpoint, the request, its parsed body, and `respond`. */
export interface RouteContext {
  sim: Simulator;
  ep: Endpoint;
  req: ApiRequest;
  /** `{job_id}` of the path, for routes that take one. */
  jobId: string | undefined;
  /** Parsed JSON body (undefined when none was sent). */
  body: unknown;
  /** Answers once and frees the concurrency slot. */
  respond: Respond;
  /** Set by handlers that hold the request: its `abort` is called if the client goes away first. */
  held?: { abort(): void };
}

/** The job named in the path, or answers 404 and returns undefined. */
export function jobOr404(ctx: RouteContext): Job | undefined {
  const j = ctx.jobId === undefined ? undefined : ctx.ep.jobs.get(ctx.jobId);
  if (!j) ctx.respond(apiError('API_ERR_JOB_NOT_FOUND', `job ${ctx.jobId ?? ''} not found (unknown or expired)`));
  return j;
}
