/**
 * The status body of a job: `{id, status}` while queued; then
 * `delayTime`, `executionTime` and `workerId`; `output` when completed (or the latest progress
 * while running); `error` when failed or timed out; `retries` once a worker crash re-queued it.
 * `input`, `webhook` and `s3Config` are never part of it.
 */
import { delayOf, retriesOf, type ReadonlyJob } from './job.js';
import { setOutput } from './workload.js';

/**
 * A class, not a plain object, so the HTTP layer can write it without `JSON.stringify`
 * (server/status-json.ts): readers see the same own properties, set in the same order (`declare`:
 * no field exists until it is assigned, so an absent one is not even `undefined`).
 */
export class StatusBody {
  declare id: string;
  declare status: string;
  declare delayTime?: number;
  declare executionTime?: number;
  declare workerId?: string;
  declare output?: unknown;
  declare error?: string;
  declare retries?: number;

  constructor(id: string, status: string) {
    this.id = id;
    this.status = status;
  }
}

/** `brief`: no `output` (nor `workerId`: the caller passes none), for callers that read only the status fields. */
export function statusBody(j: ReadonlyJob, id: string, workerId: string | undefined, nowMs: number, progress?: unknown, brief = false): StatusBody {
  const b = new StatusBody(id, j.status);
  const delay = delayOf(j);
  if (delay !== undefined) b.delayTime = delay;
  if (j.status === 'IN_PROGRESS' && j.startedAtMs !== undefined) b.executionTime = nowMs - j.startedAtMs;
  else if (j.executionTimeMs !== undefined) b.executionTime = j.executionTimeMs;
  if (workerId !== undefined) b.workerId = workerId;
  if (!brief) {
    if (j.status === 'COMPLETED') setOutput(b, j.output);
    else if (j.status === 'IN_PROGRESS' && progress !== undefined) setOutput(b, progress);
  }
  // While running, `error` holds the planned failure (job.ts): not shown.
  if (j.error !== undefined && j.status !== 'IN_PROGRESS') b.error = j.error;
  const retries = retriesOf(j);
  if (retries > 0) b.retries = retries;
  return b;
}
