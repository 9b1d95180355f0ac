import { z } from 'zod';
import { bodyBuilder, callOptions, commonFields } from './common.js';
import { jobFields, maybeCancel, observe, startGiveUp, type JobCtx, type StatusLike } from './job-follow.js';
import { submit, submitRequests } from './submit.js';
import { promptTokensOf } from '../../contract/prompt-tokens.js';
import { call, defineBehaviour, type BehaviourEnv, type Session } from './types.js';
import type { CallOptions } from '../client.js';

/**
 * `run-stream`: POST /run, then GET /stream/{id}?wait= again and again, draining partial outputs
 * until the job is terminal. Counts calls and chunks; each item of a `/stream` answer is one
 * content chunk arriving with that answer (the flow's stream metrics: TTFT, ITL, TPOT, tokens),
 * recorded when the session ends (a job that ended other than COMPLETED, or given up: broken).
 */
export const runStream = defineBehaviour({
  schema: z.strictObject({
    behaviour: z
      .literal('run-stream')
      .meta({ description: 'Client behaviour: POST /run, then GET /stream again and again, draining partial outputs until the job ends.' }),
    ...commonFields,
    cancel: jobFields.cancel,
    giveUpMs: jobFields.giveUpMs,
    waitMs: z
      .number()
      .int()
      .min(1000)
      .max(300_000)
      .optional()
      .meta({ description: '?wait= of each /stream call in ms (1000–300000); the server default (10 s) when unset.', examples: [10_000, 30_000] }),
  }),
  operation: () => 'run',
  create: (spec, env) => {
    const o = callOptions(spec, env);
    const b = bodyBuilder(spec.payload, env.flow);
    const query = spec.waitMs !== undefined ? { wait: String(spec.waitMs) } : undefined;
    const request = submitRequests('/run', b, spec.timeoutMs);
    return (s) => {
      const chunks: number[] = [];
      startGiveUp(env, s, spec.giveUpMs, () => env.streams?.ended(s.intendedMs, chunks, undefined, true, env.target.now()));
      const req = request(s);
      env.streams?.sent(promptTokensOf((req.body as { input?: unknown }).input));
      submit(env, s, o, req, 0, (job) => {
        maybeCancel(env, s, o, job, spec.cancel, spec.timeoutMs);
        drain(env, s, o, job, query, spec.timeoutMs, chunks);
      });
    };
  },
});

/** `chunks`: when each content chunk so far arrived (kept only for a flow with stream metrics). */
function drain(
  env: BehaviourEnv,
  s: Session,
  o: CallOptions,
  job: JobCtx,
  query: Record<string, string> | undefined,
  timeoutMs: number,
  chunks: number[],
): void {
  call(env, s, o, { op: 'stream', method: 'GET', path: `/stream/${job.id}`, jobId: job.id, query, timeoutMs }, (r) => {
    const items = (r.body as { stream?: unknown[] } | undefined)?.stream;
    if (r.status === 200) {
      const now = env.target.now();
      const n = Array.isArray(items) ? items.length : 0;
      env.rec.stream(now, n);
      for (let i = 0; i < n; i++) chunks.push(now);
    }
    const k = observe(env, r, s);
    if (k === 'expired' || k === 'purged') return end(env, s, chunks, k);
    if (k === 'terminal') return end(env, s, chunks, (r.body as StatusLike).status!);
    // Not terminal (or a failed call): ask again at once; the server holds the next call.
    if (r.status === 200) return drain(env, s, o, job, query, timeoutMs, chunks);
    env.target.at(env.target.now() + 1000, () => !s.done && drain(env, s, o, job, query, timeoutMs, chunks));
  });
}

/** Ends the session `outcome`, its stream recorded (complete only when the job COMPLETED). */
function end(env: BehaviourEnv, s: Session, chunks: readonly number[], outcome: string): void {
  env.streams?.ended(s.intendedMs, chunks, undefined, outcome !== 'COMPLETED', env.target.now());
  s.end(outcome);
}
