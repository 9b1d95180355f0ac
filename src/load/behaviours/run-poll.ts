import { z } from 'zod';
import { bodyBuilder, callOptions, commonFields } from './common.js';
import { jobFields, maybeCancel, pollSchema, pollUntilTerminal, startGiveUp } from './job-follow.js';
import { submit } from './submit.js';
import { defineBehaviour } from './types.js';

/**
 * `run-poll`: POST /run, then GET /status with exponential back-off and jitter until the job is
 * terminal; optional cancel, /retry of failures and give-up deadline. The SDKs' default pattern.
 */
export const runPoll = defineBehaviour({
  schema: z.strictObject({ behaviour: z.literal('run-poll'), ...commonFields, ...jobFields, poll: pollSchema }),
  operation: () => 'run',
  create: (spec, env) => {
    const o = callOptions(spec, env);
    const b = bodyBuilder(spec.payload, env.flow);
    return (s) => {
      startGiveUp(env, s, spec.giveUpMs);
      submit(env, s, o, { path: '/run', body: b.body(s.seq), bodyBytes: b.bytes, timeoutMs: spec.timeoutMs, retryFailed: spec.retryFailed }, (job) => {
        maybeCancel(env, s, o, job, spec.cancel, spec.timeoutMs);
        pollUntilTerminal(env, s, o, job, spec.poll, spec.timeoutMs);
      });
    };
  },
});
