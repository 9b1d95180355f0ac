/** `/status/{id}` (with `?ttl=`) and `/status-sync/{id}?wait=` (bodies: docs/api.md). */
import { badField } from '../errors.js';
import { jobOr404 } from '../job-or-404.js';
import type { RouteContext } from '../types.js';
import { intParam } from '../validate.js';
import { holdUntilTerminal, SYNC_WAIT } from './submit.js';

/** `?ttl=` bounds (loadlab's own; RunPod documents none): 0 ms to one week. It only ever shortens retention. */
export const STATUS_TTL_MAX_MS = 7 * 24 * 3600 * 1000;

export function status(ctx: RouteContext): void {
  const ttl = intParam(ctx.req.query?.ttl, 'ttl', 0, STATUS_TTL_MAX_MS);
  if (!ttl.ok) return ctx.respond(badField(ttl.field, ttl.reason));
  // Most polls that find their job ended find it compacted: its body comes from the columns.
  const brief = ctx.brief;
  const done = ttl.value === undefined && ctx.jobId !== undefined ? ctx.ep.jobs.compactedStatus(ctx.jobId, brief) : undefined;
  if (done) return ctx.respond({ status: 200, body: done });
  const j = jobOr404(ctx);
  if (!j) return;
  if (ttl.value !== undefined) ctx.ep.setResultTtl(j, ttl.value);
  ctx.respond({ status: 200, body: ctx.ep.status(j, brief) });
}

export function statusSync(ctx: RouteContext): void {
  const w = intParam(ctx.req.query?.wait, 'wait', SYNC_WAIT.minMs, SYNC_WAIT.maxMs);
  if (!w.ok) return ctx.respond(badField(w.field, w.reason));
  const j = jobOr404(ctx);
  if (!j) return;
  holdUntilTerminal(ctx, j, w.value ?? SYNC_WAIT.defaultMs);
}
