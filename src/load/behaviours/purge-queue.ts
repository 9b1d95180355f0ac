import { z } from 'zod';
import { callOptions, commonFields, failureOutcome } from './common.js';
import { call, defineBehaviour } from './types.js';

/** `purge-queue`: one POST /purge-queue per arrival (an operator clearing the backlog). */
export const purgeQueue = defineBehaviour({
  schema: z.strictObject({ behaviour: z.literal('purge-queue'), on429: commonFields.on429, timeoutMs: commonFields.timeoutMs }),
  operation: () => 'purge-queue',
  create: (spec, env) => {
    const o = callOptions(spec, env);
    return (s) => {
      call(env, s, o, { op: 'purge-queue', method: 'POST', path: '/purge-queue', timeoutMs: spec.timeoutMs }, (r) => {
        s.end(r.status === 200 ? 'ok' : failureOutcome(r));
      });
    };
  },
});
