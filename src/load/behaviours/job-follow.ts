/**
 * Following a submitted job: reading status bodies (terminal status, queue delay, execution
 * time, retention expiry seen as a 404), polling `/status` with back-off and jitter, the
 * optional cancel, /retry of FAILED or TIMED_OUT jobs, and the client's give-up deadline.
 */
import { z } from 'zod';
import { Exchange, type CallOptions, type ClientResponse } from '../client.js';
import type { TargetRequest } from '../targets/target.js';
import { backoffMs } from './backoff.js';
import { backoffFields } from './common.js';
import { acceptedId } from './submit.js';
import { call, type BehaviourEnv, type JobCtx, type Session } from './types.js';

const ms = z.number().int().nonnegative();
type Opts = CallOptions;

/** Gaps between polls: first after `baseMs`, growing by `factor` up to `maxMs`, minus jitter. */
export const pollSchema = z
  .strictObject({
    ...backoffFields,
    baseMs: ms.default(1000).meta({ description: 'Delay in ms from the submission to the first poll. Default: 1000.', examples: [1000, 250] }),
    factor: z
      .number()
      .min(1)
      .default(1.5)
      .meta({ description: 'Each further gap is the previous one times this (>= 1). Default: 1.5.', examples: [1.5, 1] }),
    maxMs: ms.default(10_000).meta({ description: 'Longest gap between polls in ms. Default: 10000.', examples: [10_000, 2000] }),
    jitter: z
      .number()
      .min(0)
      .max(1)
      .default(0.2)
      .meta({ description: 'Fraction in [0, 1] of each gap taken off at random (0 = none). Default: 0.2.', examples: [0.2, 0] }),
  })
  .default({ baseMs: 1000, factor: 1.5, maxMs: 10_000, jitter: 0.2 })
  .meta({
    description:
      'Gaps between /status polls: baseMs × factor^(poll−1), at most maxMs, minus up to jitter of it. Default: {baseMs: 1000, factor: 1.5, maxMs: 10000, jitter: 0.2}.',
    examples: [{ baseMs: 500, factor: 1, maxMs: 500, jitter: 0 }],
  });

export const jobFields = {
  cancel: z
    .strictObject({
      afterMs: ms.meta({ description: 'Delay in ms from the accepted submission to the /cancel.', examples: [2000, 500] }),
      probability: z
        .number()
        .min(0)
        .max(1)
        .default(1)
        .meta({ description: 'Share in [0, 1] of sessions that cancel. Default: 1.', examples: [1, 0.1] }),
    })
    .optional()
    .meta({
      description: 'POST /cancel the job afterMs after its submission was accepted, in a probability share of sessions. No cancel when unset.',
      examples: [{ afterMs: 2000, probability: 0.1 }],
    }),
  retryFailed: z
    .number()
    .int()
    .min(0)
    .max(100)
    .default(0)
    .meta({ description: 'How many times to /retry a job that ended FAILED or TIMED_OUT (0–100). Default: 0.', examples: [0, 2] }),
  giveUpMs: ms
    .positive()
    .optional()
    .meta({
      description: "The client stops waiting this long (ms) after the arrival's intended time; the session ends gave-up. Never when unset.",
      examples: [60_000, 300_000],
    }),
};

export type { JobCtx } from './types.js';

/** A terminal status (compares, not a Set lookup: this runs on every status answer). */
const isTerminal = (s: string): boolean => s === 'COMPLETED' || s === 'FAILED' || s === 'CANCELLED' || s === 'TIMED_OUT';

export interface StatusLike {
  id?: string;
  status?: string;
  delayTime?: number;
  executionTime?: number;
  workerId?: unknown;
}

/**
 * Classifies an answer about the session's job and records what it shows. A 404: the job is gone,
 * `purged` or `expired` (JobLedger.gone); a live status keeps `s.queuedMark` up to date.
 */
export function observe(env: BehaviourEnv, r: ClientResponse, s: Session): 'terminal' | 'live' | 'expired' | 'purged' | 'other' {
  if (r.status === 404) {
    const k = env.rec.ledger.gone(s.queuedMark);
    if (k === 'expired') env.rec.expirySeen(env.target.now());
    return k;
  }
  if (r.status !== 200) return 'other';
  const b = r.body as StatusLike | undefined;
  if (!b || typeof b.status !== 'string') return 'other';
  if (!isTerminal(b.status)) {
    s.queuedMark = b.status === 'IN_QUEUE' ? env.rec.ledger.mark() : Infinity;
    return 'live';
  }
  env.rec.jobTerminal(env.flow, s.intendedMs, env.target.now(), b.status, b.delayTime, b.executionTime, b.id, s.sentMs, b.workerId);
  return 'terminal';
}

/** `before`: told just before the session ends `gave-up` (a stream records what arrived). */
export function startGiveUp(env: BehaviourEnv, s: Session, giveUpMs: number | undefined, before?: () => void): void {
  if (giveUpMs === undefined) return;
  env.target.at(s.intendedMs + giveUpMs, () => {
    if (s.done) return;
    before?.();
    s.end('gave-up');
  });
}

/** After a terminal status: /retry it if allowed and wanted (then `resume`), else end the session. */
export function onTerminal(env: BehaviourEnv, s: Session, o: Opts, job: JobCtx, status: string, timeoutMs: number, resume: () => void): void {
  if ((status !== 'FAILED' && status !== 'TIMED_OUT') || job.retriesLeft <= 0) return s.end(status);
  job.retriesLeft--;
  call(env, s, o, { op: 'retry', method: 'POST', path: `/retry/${job.id}`, jobId: job.id, timeoutMs }, (r) => {
    if (r.status !== 200) return s.end(status);
    env.rec.retriedByClient();
    s.queuedMark = env.rec.ledger.mark();
    resume();
  });
}

/** Schedules the cancel of `spec` (if this session draws it). */
export function maybeCancel(
  env: BehaviourEnv,
  s: Session,
  o: Opts,
  job: JobCtx,
  spec: { afterMs: number; probability: number } | undefined,
  timeoutMs: number,
): void {
  if (!spec || !(spec.probability >= 1 || env.rng.next() < spec.probability)) return;
  env.target.at(job.acceptedAtMs + spec.afterMs, () => {
    if (s.done) return;
    const sentMs = env.target.now();
    call(env, s, o, { op: 'cancel', method: 'POST', path: `/cancel/${job.id}`, jobId: job.id, timeoutMs }, (r) => {
      if (r.status === 200 && (r.body as StatusLike).status === 'CANCELLED') env.rec.cancelled(env.target.now() - sentMs);
    });
  });
}

export type PollSpec = z.infer<typeof pollSchema>;

/**
 * One run-poll job: submits, then polls `/status` until the job is terminal (then `onTerminal`),
 * expired, or the session ends. It is its own JobCtx and its own client exchange (one request
 * out at a time: the submission, then each poll), and the status request and the timer callback
 * are made once per job, not once per poll: polls are most of the requests of a typical run, and
 * allocation is what the run loop pays for most (profiled; the garbage collector's scavenges
 * copy every job still being polled).
 */
export class PollingJob extends Exchange implements JobCtx {
  id = '';
  acceptedAtMs = 0;
  retriesLeft: number;
  private attempt = 1;
  /** The `/status` request, once the job was accepted. */
  private statusReq: TargetRequest | undefined = undefined;
  /** The target's handle of the poll timer, re-armed for each poll (`Target.at`). */
  private timer: unknown = undefined;

  constructor(
    private readonly env: BehaviourEnv,
    private readonly session: Session,
    private readonly opts: Opts,
    private readonly spec: { poll: PollSpec; timeoutMs: number; retryFailed: number; cancel?: { afterMs: number; probability: number } },
  ) {
    super(env.client);
    this.retriesLeft = spec.retryFailed;
  }

  submit(req: TargetRequest & { bodyBytes?: number }): void {
    this.session.queuedMark = this.env.rec.ledger.mark();
    call(this.env, this.session, this.opts, req, pollAnswer, this);
  }

  private readonly fire = (): void => {
    if (!this.session.done) call(this.env, this.session, this.opts, this.statusReq!, pollAnswer, this);
  };

  /** The answer to the submission (no status request yet), then to each poll. */
  answer(r: ClientResponse): void {
    if (this.statusReq === undefined) return this.submitted(r);
    const { env, session: s } = this;
    const k = observe(env, r, s);
    if (k === 'expired' || k === 'purged') return s.end(k);
    if (k === 'terminal') {
      const status = (r.body as StatusLike).status!;
      // No /retry wanted: end here, without the resume callback onTerminal would need.
      if ((status !== 'FAILED' && status !== 'TIMED_OUT') || this.retriesLeft <= 0) return s.end(status);
      this.attempt = 1;
      return onTerminal(env, s, this.opts, this, status, this.spec.timeoutMs, () => this.next());
    }
    this.attempt++;
    this.next();
  }

  private submitted(r: ClientResponse): void {
    const { env, session: s, spec } = this;
    const id = acceptedId(env, s, r);
    if (id === undefined) return;
    this.id = id;
    this.acceptedAtMs = env.target.now();
    maybeCancel(env, s, this.opts, this, spec.cancel, spec.timeoutMs);
    // `brief`: the poller reads the status fields only (observe), never the worker id or output.
    this.statusReq = { op: 'status', method: 'GET', path: `/status/${id}`, jobId: id, timeoutMs: spec.timeoutMs, brief: true };
    this.next();
  }

  private next(): void {
    const t = this.env.target;
    this.timer = t.at(t.now() + backoffMs(this.spec.poll, this.attempt, this.env.rng), this.fire, this.timer);
  }
}

/** Every PollingJob's answer callback: the job is the exchange. */
function pollAnswer(r: ClientResponse, x: Exchange): void {
  (x as PollingJob).answer(r);
}
