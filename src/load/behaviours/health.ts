import { z } from 'zod';
import { callOptions, commonFields, failureOutcome } from './common.js';
import type { TargetRequest } from '../targets/target.js';
import { call, defineBehaviour } from './types.js';
import type { HealthBodyRead } from '../../contract/health-body.js';

/**
 * `health`: one GET /health per arrival (use a constant arrival for a periodic check). Its
 * answer feeds the queue-depth and worker peaks of the report and, against a target that cannot
 * see the simulator, `windows.endpoint` (the only view of them against a real deployment) and the queue-throttle inference of 429 causes.
 */
export const health = defineBehaviour({
  schema: z.strictObject({
    behaviour: z
      .literal('health')
      .meta({ description: 'Client behaviour: one GET /health per arrival; its answers feed the queue-depth and worker peaks of the report.' }),
    on429: commonFields.on429,
    timeoutMs: commonFields.timeoutMs,
  }),
  operation: () => 'health',
  create: (spec, env) => {
    const o = callOptions(spec, env);
    // One request object for every session: a target may keep its own form of it for re-sends.
    const req: TargetRequest = { op: 'health', method: 'GET', path: '/health', timeoutMs: spec.timeoutMs };
    return (s) => {
      call(env, s, o, req, (r) => {
        if (r.status !== 200) return s.end(failureOutcome(r));
        const b = r.body as HealthBodyRead;
        const q = b.jobs?.inQueue;
        if (typeof q === 'number') env.client.lastQueueDepth = q;
        env.rec.healthSeen(env.target.now(), b);
        s.end('ok');
      });
    };
  },
});
