import { z } from 'zod';
import { bodyBuilder, callOptions, commonFields } from './common.js';
import { jobFields, maybeCancel, startGiveUp, type StatusLike } from './job-follow.js';
import { submit, submitRequests } from './submit.js';
import { defineBehaviour } from './types.js';
import { InternalError } from '../../contract/loadlab-error.js';

/**
 * `run-webhook`: POST /run with a `webhook` URL of the built-in receiver, then wait for the
 * delivery (no polling). Records attempts, retries, failures and lateness; the session ends at
 * the first acknowledged delivery (the job's status) or when the sender gives up (`webhook-lost`).
 */
export const runWebhook = defineBehaviour({
  schema: z.strictObject({
    behaviour: z
      .literal('run-webhook')
      .meta({ description: 'Client behaviour: POST /run with a webhook to the built-in receiver, then wait for the delivery (no polling).' }),
    ...commonFields,
    cancel: jobFields.cancel,
    giveUpMs: jobFields.giveUpMs,
  }),
  operation: () => 'run',
  create: (spec, env) => {
    const o = callOptions(spec, env);
    const url = env.target.webhookUrl;
    if (!url) throw new InternalError(`flow ${env.flow}: this target has no webhook receiver`);
    const b = bodyBuilder(spec.payload, env.flow, { webhook: url });
    const request = submitRequests('/run', b, spec.timeoutMs);
    return (s) => {
      startGiveUp(env, s, spec.giveUpMs);
      submit(env, s, o, request(s), 0, (job) => {
        maybeCancel(env, s, o, job, spec.cancel, spec.timeoutMs);
        env.webhooks.set(job.id, (attempt, ok, last, body) => {
          const now = env.target.now();
          const st = body as StatusLike;
          // The job ended at submission + queue delay + execution (client clock).
          const endedAt = job.acceptedAtMs + (st.delayTime ?? 0) + (st.executionTime ?? 0);
          env.rec.webhookAttempt(now, attempt, ok, last, ok ? now - endedAt : undefined);
          if (!ok && !last) return;
          env.webhooks.delete(job.id);
          if (s.done) return;
          if (ok) env.rec.jobTerminal(env.flow, s.intendedMs, now, st.status ?? 'UNKNOWN', st.delayTime, st.executionTime, job.id, s.sentMs, st.workerId);
          s.end(ok ? (st.status ?? 'UNKNOWN') : 'webhook-lost');
        });
      });
    };
  },
});
