/**
 * `/stream/{id}` (FACTS): each call drains what was produced since the last one; with nothing
 * new it holds up to `?wait=` (default 10 s). One item carries at most 1 MiB of output; a larger
 * output (a string, or the JSON text of anything else) is split over several items.
 */
import { delayOf, type Job } from '../../sim/job.js';
import { badField } from '../errors.js';
import { jobOr404, type RouteContext } from '../context.js';
import { hold } from '../hold.js';
import type { ApiResponse } from '../types.js';
import { intParam } from '../validate.js';

export const STREAM_WAIT = { defaultMs: 10_000, minMs: 1000, maxMs: 300_000 } as const;
/** Largest output in one stream item, in characters (outputs are measured as JSON text). */
export const STREAM_ITEM_MAX = 1024 * 1024;

export function splitItems(outputs: unknown[]): { output: unknown }[] {
  const items: { output: unknown }[] = [];
  for (const o of outputs) {
    const text = typeof o === 'string' ? o : JSON.stringify(o) ?? 'null';
    if (text.length <= STREAM_ITEM_MAX) {
      items.push({ output: o });
      continue;
    }
    for (let i = 0; i < text.length; i += STREAM_ITEM_MAX) items.push({ output: text.slice(i, i + STREAM_ITEM_MAX) });
  }
  return items;
}

function answer(ctx: RouteContext, j: Job): ApiResponse {
  const stream = splitItems(ctx.ep.drainStream(j));
  const body: Record<string, unknown> = { id: ctx.ep.jobs.idOf(j), status: j.status };
  const delay = delayOf(j);
  if (delay !== undefined) body.delayTime = delay;
  // While running, `error` holds the planned failure (sim/job.ts): not shown.
  if (j.error !== undefined && j.status !== 'IN_PROGRESS') body.error = j.error;
  body.stream = stream;
  return { status: 200, body };
}

export function stream(ctx: RouteContext): void {
  const w = intParam(ctx.req.query?.wait, 'wait', STREAM_WAIT.minMs, STREAM_WAIT.maxMs);
  if (!w.ok) return ctx.respond(badField(w.field, w.reason));
  const j = jobOr404(ctx);
  if (!j) return;
  if (!ctx.ep.streamIdle(j)) return ctx.respond(answer(ctx, j));
  hold(ctx, j, w.value ?? STREAM_WAIT.defaultMs, 'change', answer);
}
