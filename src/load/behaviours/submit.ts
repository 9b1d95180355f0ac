/** POST /run (or /runsync): the job id on success, or the session ends with the failure. */
import { balancerCause } from '../record/balancer-cause.js';
import type { ClientResponse } from '../client.js';
import type { TargetRequest } from '../targets/target.js';
import { failureOutcome } from './common.js';
import { promptOfRequest } from './prompt-text.js';
import type { Template } from './template.js';
import { call, type BehaviourEnv, type JobCtx, type Session } from './types.js';
import type { CallOptions } from '../client.js';

export type SubmitRequest = TargetRequest & { bodyBytes: number };

/**
 * The submit request of each session: one shared object for all of them when the body does not
 * depend on `seq` and the session carries no trace request. A token trace's request (`s.request`)
 * sets `input.prompt` to exactly its prompt tokens, `input.max_tokens` to its answer length and
 * `input.ignore_eos` (the answer is exactly that long), the rest of the input as the payload has it.
 */
export function submitRequests(
  path: '/run' | '/runsync',
  b: { body: Template<Record<string, unknown>>; bytes: number },
  timeoutMs: number,
  query?: Record<string, string>,
): (s: Session) => SubmitRequest {
  const plain = plainRequests(path, b, timeoutMs, query);
  return (s) => {
    const req = plain(s.seq);
    const t = s.request;
    if (!t) return req;
    const input = { ...(req.body as { input: Record<string, unknown> }).input, prompt: promptOfRequest(t), max_tokens: t.outputTokens, ignore_eos: true };
    const body = { ...(req.body as Record<string, unknown>), input };
    return { ...req, body, bodyBytes: Buffer.byteLength(JSON.stringify(body)) };
  };
}

function plainRequests(
  path: '/run' | '/runsync',
  b: { body: Template<Record<string, unknown>>; bytes: number },
  timeoutMs: number,
  query?: Record<string, string>,
): (seq: number) => SubmitRequest {
  const make = (seq: number): SubmitRequest => ({
    op: path === '/run' ? 'run' : 'runsync',
    method: 'POST',
    path,
    query,
    body: b.body(seq),
    bodyBytes: b.bytes,
    timeoutMs,
  });
  if (!b.body.constant) return make;
  const shared = make(0);
  return () => shared;
}

/** The API accepted the session's job: counted once, and the session's end will say how it ended. */
export function acceptJob(env: BehaviourEnv, s: Session): void {
  s.hasJob = true;
  env.rec.jobAccepted();
}

/**
 * A held request that created a job (/runsync, OpenAI) answered 404 with the simulator's
 * API_ERR_JOB_NOT_FOUND: the job was accepted, then removed before it ended (purged, or its ttl
 * ran out). Counts the job and ends the session `purged` or `expired`; false for any other answer.
 */
export function removedWhileHeld(env: BehaviourEnv, s: Session, r: ClientResponse): boolean {
  if (r.status !== 404) return false;
  // The OpenAI routes say it OpenAI's way: `{"error": {"code": "job_not_found", …}}`.
  const b = r.body as { code?: unknown; error?: { code?: unknown } } | undefined;
  if (b?.code !== 'API_ERR_JOB_NOT_FOUND' && b?.error?.code !== 'job_not_found') return false;
  acceptJob(env, s);
  const k = env.rec.ledger.gone(s.queuedMark);
  if (k === 'expired') env.rec.expirySeen(env.target.now());
  s.end(k);
  return true;
}

/**
 * A load-balancing endpoint's request that its balancer ended (balancer-cause.ts): a request the
 * endpoint took (a job, as the simulator counts it) that ended without a worker's answer: counted
 * accepted, its status `TIMED_OUT` (504) or `FAILED` (no workers, dropped, strict worker timeout),
 * and the session ends so. `worker-gone` is not one: the balancer refuses such a request on arrival.
 * False for any other answer.
 */
export function balancerEnded(env: BehaviourEnv, s: Session, r: ClientResponse): boolean {
  const cause = balancerCause(r);
  if (cause === undefined || cause === 'worker-gone') return false;
  jobEnded(env, s, cause === 'timeout' ? 'TIMED_OUT' : 'FAILED');
  return true;
}

/** A request the endpoint took (a job) that ended `status` now: counted accepted, recorded terminal, and the session ends so. */
export function jobEnded(env: BehaviourEnv, s: Session, status: string): void {
  acceptJob(env, s);
  env.rec.jobTerminal(env.flow, s.intendedMs, env.target.now(), status, undefined, undefined, undefined, s.sentMs);
  s.end(status);
}

/** The job id a submission was answered with (counted as accepted); else the session ends with the failure. */
export function acceptedId(env: BehaviourEnv, s: Session, r: ClientResponse): string | undefined {
  const id = r.status === 200 ? (r.body as { id?: unknown } | undefined)?.id : undefined;
  if (typeof id !== 'string') {
    if (!removedWhileHeld(env, s, r)) s.end(failureOutcome(r));
    return undefined;
  }
  acceptJob(env, s);
  return id;
}

export function submit(
  env: BehaviourEnv,
  s: Session,
  o: CallOptions,
  req: SubmitRequest,
  retryFailed: number,
  accepted: (job: JobCtx, r: ClientResponse) => void,
): void {
  // Queued from here on, as far as this client knows (a held /runsync answers only at its end).
  s.queuedMark = env.rec.ledger.mark();
  call(env, s, o, req, (r) => {
    const id = acceptedId(env, s, r);
    if (id !== undefined) accepted({ id, acceptedAtMs: env.target.now(), retriesLeft: retryFailed }, r);
  });
}
