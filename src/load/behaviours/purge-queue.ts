import { z } from 'zod';
import { callOptions, commonFields, failureOutcome } from './common.js';
import type { TargetRequest } from '../targets/target.js';
import { call, defineBehaviour } from './types.js';

/** `purge-queue`: one POST /purge-queue per arrival (an operator clearing the backlog). */
export const purgeQueue = defineBehaviour({
  schema: z.strictObject({
    behaviour: z.literal('purge-queue').meta({ description: 'Client behaviour: one POST /purge-queue per arrival (an operator clearing the backlog).' }),
    on429: commonFields.on429,
    timeoutMs: commonFields.timeoutMs,
  }),
  operation: () => 'purge-queue',
  create: (spec, env) => {
    const o = callOptions(spec, env);
    // One request object for every session: a target may keep its own form of it for re-sends.
    const req: TargetRequest = { op: 'purge-queue', method: 'POST', path: '/purge-queue', timeoutMs: spec.timeoutMs };
    return (s) => {
      // The ledger tells purged jobs from expired ones by the order of purges and sightings.
      env.rec.ledger.purgeSent();
      call(env, s, o, req, (r) => {
        const removed = r.status === 200 ? (r.body as { removed?: unknown } | undefined)?.removed : 0;
        env.rec.ledger.purgeAnswered(typeof removed === 'number' ? removed : 0);
        s.end(r.status === 200 ? 'ok' : failureOutcome(r));
      });
    };
  },
});
