/** POST /run (or /runsync): the job id on success, or the session ends with the failure. */
import type { ClientResponse } from '../client.js';
import type { TargetRequest } from '../target.js';
import { failureOutcome } from './common.js';
import type { Template } from './template.js';
import type { JobCtx } from './job-follow.js';
import { call, type BehaviourEnv, type Session } from './types.js';
import type { CallOptions } from '../client.js';

export type SubmitRequest = TargetRequest & { bodyBytes: number };

/**
 * The submit request of each session (`seq`): one shared object (and wire form) for all of them
 * when the body does not depend on `seq`.
 */
export function submitRequests(
  path: '/run' | '/runsync', b: { body: Template<Record<string, unknown>>; bytes: number }, timeoutMs: number, query?: Record<string, string>,
): (seq: number) => SubmitRequest {
  const make = (seq: number): SubmitRequest => ({ op: path === '/run' ? 'run' : 'runsync', method: 'POST', path, query, body: b.body(seq), bodyBytes: b.bytes, timeoutMs, wire: undefined });
  if (!b.body.constant) return make;
  const shared = make(0);
  return () => shared;
}

/** The job id a submission was answered with (counted as accepted); else the session ends with the failure. */
export function acceptedId(env: BehaviourEnv, s: Session, r: ClientResponse): string | undefined {
  const id = r.status === 200 ? (r.body as { id?: unknown } | undefined)?.id : undefined;
  if (typeof id !== 'string') {
    s.end(failureOutcome(r));
    return undefined;
  }
  env.rec.jobAccepted();
  return id;
}

export function submit(env: BehaviourEnv, s: Session, o: CallOptions, req: SubmitRequest, retryFailed: number, accepted: (job: JobCtx, r: ClientResponse) => void): void {
  call(env, s, o, req, (r) => {
    const id = acceptedId(env, s, r);
    if (id !== undefined) accepted({ id, acceptedAtMs: env.target.now(), retriesLeft: retryFailed }, r);
  });
}
