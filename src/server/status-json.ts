/**
 * A job's status body as JSON text, written by hand: the same text `JSON.stringify` gives (keys
 * in the order `statusBody` sets them, undefined ones left out) at a fraction of its cost on the
 * `/status` path. Ids (job-table.ts) and statuses need no escaping; numbers are written as JSON
 * writes them (a non-finite one as `null`); strings and the output go through `JSON.stringify`.
 * A synthetic output (`outputBytes` letters `x`) is left to the writer as a count of bytes
 * (`statusJsonAround`): the text around it is the same, and `"xxx…"` needs no escaping.
 */
import type { StatusBody } from '../sim/job-body.js';
import { syntheticOutputOf } from '../sim/workload.js';

const num = (n: number): string => (Number.isFinite(n) ? String(n) : 'null');

/** The fields before `output`, from the opening brace. */
function before(b: StatusBody): string {
  let t = `{"id":"${b.id}","status":"${b.status}"`;
  if (b.delayTime !== undefined) t += `,"delayTime":${num(b.delayTime)}`;
  if (b.executionTime !== undefined) t += `,"executionTime":${num(b.executionTime)}`;
  if (b.workerId !== undefined) t += `,"workerId":${JSON.stringify(b.workerId)}`;
  return t;
}

/** The fields after `output`, to the closing brace. */
function after(b: StatusBody): string {
  let t = '';
  if (b.error !== undefined) t += `,"error":${JSON.stringify(b.error)}`;
  if (b.retries !== undefined) t += `,"retries":${num(b.retries)}`;
  return `${t}}`;
}

export function statusJson(b: StatusBody): string {
  let t = before(b);
  if (b.output !== undefined) {
    const o = JSON.stringify(b.output) as string | undefined;
    if (o !== undefined) t += `,"output":${o}`;
  }
  return t + after(b);
}

/** A body with a synthetic output as `head`, then `bytes` letters `x`, then `tail`; undefined for any other body. */
export function statusJsonAround(b: StatusBody): { head: string; bytes: number; tail: string } | undefined {
  const o = syntheticOutputOf(b);
  if (o === undefined) return undefined;
  return { head: `${before(b)},"output":"`, bytes: o.bytes, tail: `"${after(b)}` };
}
