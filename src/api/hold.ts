/**
 * Held responses (runsync, status-sync, stream long-poll, openai): the request waits in virtual
 * time until the job changes in a way it cares about, or its wait ends, or the client goes away.
 *
 * One `Hold` object per held request: it is the job's waiter, its timer's argument and the
 * request's abort hook (no closures, no spec literal). Object literals here were "pretenured" by
 * V8 (allocated straight into the old generation once their allocation site looked long-lived),
 * which kept every held request, and what it pointed to, alive until the next full collection.
 */
import type { Job, JobWaiter, ReadonlyJob } from '../sim/job.js';
import type { Timer } from '../lib/scheduler.js';
import { apiError } from './errors.js';
import type { ApiResponse, RouteContext } from './types.js';

/** The answer when the hold ends (ready, or the wait ran out). */
export type HoldAnswer = (ctx: RouteContext, job: Job) => ApiResponse;

/**
 * Holds `ctx` for at most `waitMs` virtual ms: answers `answer(ctx, job)` on the first change
 * `until` asks for ('terminal': the job ended; 'change': also a streamed chunk) or when the wait
 * ends; answers 404 if the job is removed first.
 */
export function hold(ctx: RouteContext, held: ReadonlyJob, waitMs: number, until: 'terminal' | 'change', answer: HoldAnswer): void {
  // Only jobs that have not ended are held: never compacted, so `own` is the stored object.
  const job = ctx.ep.jobs.own(held);
  const h = new Hold(ctx, job, until === 'change', answer);
  h.timer = ctx.sim.sched.after(waitMs, waitEnded, h);
  ctx.ep.wait(job, h);
  ctx.held = h;
}

class Hold implements JobWaiter {
  timer: Timer | undefined = undefined;

  constructor(
    readonly ctx: RouteContext,
    readonly job: Job,
    private readonly onChunk: boolean,
    readonly answer: HoldAnswer,
  ) {}

  get wantsChunks(): boolean {
    return this.onChunk;
  }

  update(change: 'chunk' | 'terminal' | 'gone'): boolean {
    const ctx = this.ctx;
    if (change === 'gone') {
      ctx.sim.sched.cancel(this.timer);
      ctx.respond(apiError('API_ERR_JOB_NOT_FOUND', `job ${ctx.ep.jobs.idOf(this.job)} was removed (ttl or retention expired)`));
      return true;
    }
    if (change === 'chunk' && !this.onChunk) return false;
    ctx.sim.sched.cancel(this.timer);
    ctx.respond(this.answer(ctx, this.job));
    return true;
  }

  /** The client went away first. */
  abort(): void {
    this.ctx.sim.sched.cancel(this.timer);
    this.ctx.ep.unwait(this.job, this);
  }
}

function waitEnded(h: Hold): void {
  h.ctx.ep.unwait(h.job, h);
  h.ctx.respond(h.answer(h.ctx, h.job));
}
