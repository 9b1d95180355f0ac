/** `/cancel/{id}` and `/retry/{id}` (docs/api.md). */
import { apiError } from '../errors.js';
import { jobOr404 } from '../job-or-404.js';
import type { RouteContext } from '../types.js';

/** Cancels a queued or running job; on a job already ended it answers the status unchanged. */
export function cancel(ctx: RouteContext): void {
  const j = jobOr404(ctx);
  if (!j) return;
  ctx.ep.cancel(j);
  ctx.respond({ status: 200, body: { id: ctx.ep.jobs.idOf(j), status: j.status } });
}

/** Re-queues a FAILED or TIMED_OUT job (same id); any other state is a 400. */
export function retry(ctx: RouteContext): void {
  const j = jobOr404(ctx);
  if (!j) return;
  if (!ctx.ep.retry(j)) {
    return ctx.respond(apiError('API_ERR_NOT_RETRYABLE', `job ${ctx.ep.jobs.idOf(j)} is ${j.status}; only FAILED or TIMED_OUT jobs can be retried`));
  }
  // `/retry` answers IN_QUEUE, even when an idle worker has already picked the job up (as `/run`).
  ctx.respond({ status: 200, body: { id: ctx.ep.jobs.idOf(j), status: 'IN_QUEUE' } });
}
