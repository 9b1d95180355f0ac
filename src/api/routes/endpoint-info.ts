/** `/purge-queue`, `/health` and `/requests` (bodies: docs/api.md). */
import type { RouteContext } from '../types.js';

export function purgeQueue(ctx: RouteContext): void {
  ctx.respond({ status: 200, body: { removed: ctx.ep.purge(), status: 'completed' } });
}

export function health(ctx: RouteContext): void {
  ctx.respond({ status: 200, body: ctx.ep.health() });
}

/** Most jobs `/requests` lists (newest first). */
export const REQUESTS_LIMIT = 100;

/** `/requests`: undocumented upstream; loadlab lists the endpoint's known jobs, newest first. */
export function requests(ctx: RouteContext): void {
  const out: { id: string; status: string }[] = [];
  for (const j of ctx.ep.jobs.newestFirst()) {
    if (out.length >= REQUESTS_LIMIT) break;
    out.push({ id: ctx.ep.jobs.idOf(j), status: j.status });
  }
  ctx.respond({ status: 200, body: { requests: out, total: ctx.ep.retainedCount() } });
}
