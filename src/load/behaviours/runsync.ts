import { z } from 'zod';
import type { CallOptions } from '../client.js';
import { bodyBuilder, callOptions, commonFields } from './common.js';
import { jobFields, maybeCancel, observe, onTerminal, startGiveUp, type JobCtx, type StatusLike } from './job-follow.js';
import { submit, submitRequests } from './submit.js';
import { call, defineBehaviour, type BehaviourEnv, type Session } from './types.js';

const wait = z.number().int().min(1000).max(300_000);

/**
 * `runsync`: POST /runsync?wait=; when it answers a non-terminal status, follow up with
 * /status-sync?wait= until the job is terminal (the runpod-sdk's pattern). /retry of failures.
 */
export const runsync = defineBehaviour({
  schema: z.strictObject({
    behaviour: z.literal('runsync').meta({ description: 'Client behaviour: POST /runsync?wait=, then GET /status-sync?wait= until the job ends.' }),
    ...commonFields,
    ...jobFields,
    waitMs: wait.optional().meta({ description: '?wait= of /runsync in ms (1000–300000); the server default (90 s) when unset.', examples: [90_000, 30_000] }),
    statusSyncWaitMs: wait
      .optional()
      .meta({ description: '?wait= of each /status-sync follow-up in ms (1000–300000); the server default when unset.', examples: [60_000, 10_000] }),
  }),
  operation: () => 'runsync',
  create: (spec, env) => {
    const o = callOptions(spec, env);
    const b = bodyBuilder(spec.payload, env.flow);
    const q = spec.waitMs !== undefined ? { wait: String(spec.waitMs) } : undefined;
    const fq = spec.statusSyncWaitMs !== undefined ? { wait: String(spec.statusSyncWaitMs) } : undefined;
    const request = submitRequests('/runsync', b, spec.timeoutMs, q);
    return (s) => {
      startGiveUp(env, s, spec.giveUpMs);
      submit(env, s, o, request(s), spec.retryFailed, (job, r) => {
        maybeCancel(env, s, o, job, spec.cancel, spec.timeoutMs);
        handle(env, s, o, job, r, fq, spec.timeoutMs);
      });
    };
  },
});

function handle(
  env: BehaviourEnv,
  s: Session,
  o: CallOptions,
  job: JobCtx,
  r: Parameters<typeof observe>[1],
  q: Record<string, string> | undefined,
  timeoutMs: number,
): void {
  const k = observe(env, r, s);
  if (k === 'expired' || k === 'purged') return s.end(k);
  if (k === 'terminal') return onTerminal(env, s, o, job, (r.body as StatusLike).status!, timeoutMs, () => follow(env, s, o, job, q, timeoutMs));
  if (k === 'live' || r.status === 200) return follow(env, s, o, job, q, timeoutMs);
  // A failed follow-up call (timeout, 429 exhausted): try again a second later.
  env.target.at(env.target.now() + 1000, () => !s.done && follow(env, s, o, job, q, timeoutMs));
}

function follow(env: BehaviourEnv, s: Session, o: CallOptions, job: JobCtx, q: Record<string, string> | undefined, timeoutMs: number): void {
  call(env, s, o, { op: 'status-sync', method: 'GET', path: `/status-sync/${job.id}`, jobId: job.id, query: q, timeoutMs }, (r) =>
    handle(env, s, o, job, r, q, timeoutMs),
  );
}
