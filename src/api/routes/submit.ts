/** `/run` and `/runsync`: validation, queue throttling, job creation, the sync hold. */
import type { Job, ReadonlyJob } from '../../sim/job.js';
import { isTerminal } from '../../sim/job.js';
import type { Submission } from '../../sim/endpoint.js';
import { checkJobBody, intParam } from '../validate.js';
import { badField, limited } from '../errors.js';
import { hold } from '../hold.js';
import { checkLlmInput } from '../llm-input.js';
import { QueuedAnswer, type ApiResponse, type RouteContext } from '../types.js';

/** `/runsync?wait=`: default 90 s, accepted 1 000 – 300 000 ms. */
export const SYNC_WAIT = { defaultMs: 90_000, minMs: 1000, maxMs: 300_000 } as const;

/** Creates a job (giving it its id) unless the queue is throttled; answers the error itself and returns undefined. */
export function createJob(ctx: RouteContext, s: Submission): Job | undefined {
  const kind = s.kind;
  const { ep, sim } = ctx;
  // A load-balancing endpoint has no queue to throttle: its balancer holds the request (routes/balancer.ts).
  const lb = ctx.balancer;
  if (lb !== undefined) {
    s.id = sim.newJobId(false);
    s.affinity = lb.affinity;
    return (lb.job = ep.submit(s));
  }
  if (ep.limits.queueFull(ep.queue.length, ep.cfg.workersMax)) {
    // A 429 uses up no rate budget: the token the rate check took is given back.
    ep.limits.refundRate(kind);
    ep.limited(kind, 'queue');
    ctx.respond(limited('queue', kind));
    return undefined;
  }
  s.id = sim.newJobId(kind === 'runsync');
  return ep.submit(s);
}

export function run(ctx: RouteContext): void {
  const c = checkJobBody(ctx.body, 'run');
  if (!c.ok) return ctx.respond(badField(c.field, c.reason));
  const s = c.value;
  const llm = ctx.ep.cfg.llm;
  const bad = llm ? checkLlmInput(s, llm.engine) : undefined;
  if (bad) return ctx.respond(badField(bad.field, bad.reason));
  const j = createJob(ctx, s);
  // Accepted into the queue; it may already have started on an idle worker, but /run answers IN_QUEUE.
  if (j) ctx.respond({ status: 200, body: new QueuedAnswer(s.id) });
}

export function runsync(ctx: RouteContext): void {
  const w = intParam(ctx.req.query?.wait, 'wait', SYNC_WAIT.minMs, SYNC_WAIT.maxMs);
  if (!w.ok) return ctx.respond(badField(w.field, w.reason));
  const c = checkJobBody(ctx.body, 'runsync');
  if (!c.ok) return ctx.respond(badField(c.field, c.reason));
  const llm = ctx.ep.cfg.llm;
  const bad = llm ? checkLlmInput(c.value, llm.engine) : undefined;
  if (bad) return ctx.respond(badField(bad.field, bad.reason));
  const j = createJob(ctx, c.value);
  if (!j) return;
  holdUntilTerminal(ctx, j, w.value ?? SYNC_WAIT.defaultMs);
}

/** Answers the status body when the job ends or `waitMs` passes, whichever is first. */
export function holdUntilTerminal(ctx: RouteContext, j: ReadonlyJob, waitMs: number): void {
  if (isTerminal(j.status)) return ctx.respond({ status: 200, body: ctx.ep.status(j) });
  hold(ctx, j, waitMs, 'terminal', statusAnswer);
}

const statusAnswer = (ctx: RouteContext, j: Job): ApiResponse => ({ status: 200, body: ctx.ep.status(j) });
