/**
 * `/stream/{id}`: each call drains what was produced since the last one; with nothing
 * new it holds up to `?wait=` (default 10 s). One item carries at most 1 MB (1 000 000 bytes) of
 * output, counted in UTF-8: a larger output (a string, or the JSON text of anything else) is split
 * over several items, never inside a character.
 */
import { delayOf, type ReadonlyJob } from '../../sim/job.js';
import { badField } from '../errors.js';
import { jobOr404 } from '../job-or-404.js';
import { hold } from '../hold.js';
import type { ApiResponse, RouteContext } from '../types.js';
import { intParam } from '../validate.js';

export const STREAM_WAIT = { defaultMs: 10_000, minMs: 1000, maxMs: 300_000 } as const;
/** Largest output in one stream item: 1 MB, in UTF-8 bytes of the string or JSON text. */
export const STREAM_ITEM_MAX = 1_000_000;

export function splitItems(outputs: unknown[], maxBytes = STREAM_ITEM_MAX): { output: unknown }[] {
  const items: { output: unknown }[] = [];
  for (const o of outputs) {
    const text = typeof o === 'string' ? o : (JSON.stringify(o) ?? 'null');
    // At most 3 bytes per UTF-16 code unit (a surrogate pair: 4 bytes for 2 units): most outputs
    // are known to fit without being measured.
    if (text.length * 3 <= maxBytes || utf8Bytes(text) <= maxBytes) {
      items.push({ output: o });
      continue;
    }
    for (let i = 0; i < text.length; ) {
      const end = utf8End(text, i, maxBytes);
      items.push({ output: text.slice(i, end) });
      i = end;
    }
  }
  return items;
}

/** UTF-8 bytes of one code point starting at code unit `i` of `s`. */
function charBytes(s: string, i: number): number {
  const c = s.charCodeAt(i);
  if (c < 0x80) return 1;
  if (c < 0x800) return 2;
  if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
    const d = s.charCodeAt(i + 1);
    if (d >= 0xdc00 && d <= 0xdfff) return 4;
  }
  // Any other unit, a lone surrogate included (written as U+FFFD, 3 bytes).
  return 3;
}

/** Size of `s` in UTF-8. */
export function utf8Bytes(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; ) {
    const b = charBytes(s, i);
    n += b;
    i += b === 4 ? 2 : 1;
  }
  return n;
}

/** One past the last code unit of the longest run of whole characters from `from` within `maxBytes` (at least one character). */
function utf8End(s: string, from: number, maxBytes: number): number {
  let n = 0;
  let i = from;
  while (i < s.length) {
    const b = charBytes(s, i);
    if (n + b > maxBytes && i > from) break;
    n += b;
    i += b === 4 ? 2 : 1;
  }
  return i;
}

function answer(ctx: RouteContext, j: ReadonlyJob): ApiResponse {
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
