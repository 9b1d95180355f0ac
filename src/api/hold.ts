/**
 * Held responses (runsync, status-sync, stream long-poll, openai): the request waits in virtual
 * time until the job changes in a way it cares about, or its wait ends, or the client goes away.
 */
import type { Job, JobWaiter } from '../sim/job.js';
import { apiError } from './errors.js';
import type { RouteContext } from './context.js';
import type { ApiResponse } from './types.js';

export interface HoldSpec {
  job: Job;
  /** Longest hold in virtual ms. */
  waitMs: number;
  /** Does this change end the hold? (`gone` always does.) */
  ready(change: 'chunk' | 'terminal'): boolean;
  /** The answer when the hold ends (ready, or the wait ran out). */
  answer(): ApiResponse;
}

export function hold(ctx: RouteContext, h: HoldSpec): void {
  const { sched } = ctx.sim;
  let timer = undefined as ReturnType<typeof sched.at> | undefined;
  const waiter: JobWaiter = {
    update(change) {
      if (change === 'gone') {
        sched.cancel(timer);
        ctx.respond(apiError('API_ERR_JOB_NOT_FOUND', `job ${ctx.ep.jobs.idOf(h.job)} was removed (ttl or retention expired)`));
        return true;
      }
      if (!h.ready(change)) return false;
      sched.cancel(timer);
      ctx.respond(h.answer());
      return true;
    },
  };
  timer = sched.after(h.waitMs, () => {
    ctx.ep.unwait(h.job, waiter);
    ctx.respond(h.answer());
  });
  ctx.ep.wait(h.job, waiter);
  ctx.onAbort = () => {
    sched.cancel(timer);
    ctx.ep.unwait(h.job, waiter);
  };
}
