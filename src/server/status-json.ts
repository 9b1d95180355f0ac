/**
 * A job's status body as JSON text, written by hand: the same text `JSON.stringify` gives (keys
 * in the order `statusBody` sets them, undefined ones left out) at a fraction of its cost on the
 * `/status` path. Ids (job-table.ts) and statuses need no escaping; numbers are written as JSON
 * writes them (a non-finite one as `null`); strings and the output go through `JSON.stringify`.
 */
import type { StatusBody } from '../sim/job-body.js';

const num = (n: number): string => (Number.isFinite(n) ? String(n) : 'null');

export function statusJson(b: StatusBody): string {
  let t = `{"id":"${b.id}","status":"${b.status}"`;
  if (b.delayTime !== undefined) t += `,"delayTime":${num(b.delayTime)}`;
  if (b.executionTime !== undefined) t += `,"executionTime":${num(b.executionTime)}`;
  if (b.workerId !== undefined) t += `,"workerId":${JSON.stringify(b.workerId)}`;
  if (b.output !== undefined) {
    const o = JSON.stringify(b.output) as string | undefined;
    if (o !== undefined) t += `,"output":${o}`;
  }
  if (b.error !== undefined) t += `,"error":${JSON.stringify(b.error)}`;
  if (b.retries !== undefined) t += `,"retries":${num(b.retries)}`;
  return `${t}}`;
}
