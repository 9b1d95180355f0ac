/** POST /run (or /runsync): the job id on success, or the session ends with the failure. */
import type { ClientResponse } from '../client.js';
import { failureOutcome } from './common.js';
import type { JobCtx } from './job-follow.js';
import { call, type BehaviourEnv, type Session } from './types.js';
import type { CallOptions } from '../client.js';

export interface SubmitSpec {
  path: '/run' | '/runsync';
  query?: Record<string, string>;
  body: Record<string, unknown>;
  bodyBytes: number;
  timeoutMs: number;
  retryFailed: number;
}

export function submit(env: BehaviourEnv, s: Session, o: Omit<CallOptions, 'arrival'>, spec: SubmitSpec, accepted: (job: JobCtx, r: ClientResponse) => void): void {
  const op = spec.path === '/run' ? 'run' : 'runsync';
  const req = { op, method: 'POST', path: spec.path, query: spec.query, body: spec.body, bodyBytes: spec.bodyBytes, timeoutMs: spec.timeoutMs } as const;
  call(env, s, o, req, (r) => {
    const id = r.status === 200 ? (r.body as { id?: unknown } | undefined)?.id : undefined;
    if (typeof id !== 'string') return s.end(failureOutcome(r));
    env.rec.jobAccepted();
    accepted({ id, acceptedAtMs: env.target.now(), retriesLeft: spec.retryFailed }, r);
  });
}
