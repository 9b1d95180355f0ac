import { z } from 'zod';
import { bodyBuilder, callOptions, commonFields } from './common.js';
import { jobFields, pollSchema, PollingJob, startGiveUp } from './job-follow.js';
import { submitRequests } from './submit.js';
import { defineBehaviour } from './types.js';

/**
 * `run-poll`: POST /run, then GET /status with exponential back-off and jitter until the job is
 * terminal; optional cancel, /retry of failures and give-up deadline. The SDKs' default pattern.
 */
export const runPoll = defineBehaviour({
  schema: z.strictObject({
    behaviour: z
      .literal('run-poll')
      .meta({ description: "Client behaviour: POST /run, then GET /status with back-off until the job ends (the SDKs' default pattern)." }),
    ...commonFields,
    ...jobFields,
    poll: pollSchema,
  }),
  operation: () => 'run',
  create: (spec, env) => {
    const o = callOptions(spec, env);
    const b = bodyBuilder(spec.payload, env.flow);
    const request = submitRequests('/run', b, spec.timeoutMs);
    return (s) => {
      startGiveUp(env, s, spec.giveUpMs);
      new PollingJob(env, s, o, spec).submit(request(s));
    };
  },
});
