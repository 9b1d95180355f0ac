/**
 * Following a submitted job: reading status bodies (terminal status, queue delay, execution
 * time, retention expiry seen as a 404), polling `/status` with back-off and jitter, the
 * optional cancel, /retry of FAILED or TIMED_OUT jobs, and the client's give-up deadline.
 */
import { z } from 'zod';
import type { CallOptions, ClientResponse } from '../client.js';
import type { TargetRequest } from '../target.js';
import { backoffMs } from '../backoff.js';
import { backoffFields } from './common.js';
import { call, type BehaviourEnv, type Session } from './types.js';

const ms = z.number().int().nonnegative();
type Opts = Omit<CallOptions, 'arrival'>;

/** Gaps between polls: first after `baseMs`, growing by `factor` up to `maxMs`, minus jitter. */
export const pollSchema = z
  .strictObject({ ...backoffFields, baseMs: ms.default(1000), factor: z.number().min(1).default(1.5), maxMs: ms.default(10_000), jitter: z.number().min(0).max(1).default(0.2) })
  .default({ baseMs: 1000, factor: 1.5, maxMs: 10_000, jitter: 0.2 });

export const jobFields = {
  /** Cancel `afterMs` after submission, in a `probability` share of sessions. */
  cancel: z.strictObject({ afterMs: ms, probability: z.number().min(0).max(1).default(1) }).optional(),
  /** How many times to /retry a job that ended FAILED or TIMED_OUT. */
  retryFailed: z.number().int().min(0).max(100).default(0),
  /** The client stops waiting this long after the arrival (outcome `gave-up`). */
  giveUpMs: ms.positive().optional(),
};

export interface JobCtx {
  id: string;
  /** When the submission was answered (client clock). */
  acceptedAtMs: number;
  retriesLeft: number;
}

const TERMINAL = new Set(['COMPLETED', 'FAILED', 'CANCELLED', 'TIMED_OUT']);

export interface StatusLike {
  id?: string;
  status?: string;
  delayTime?: number;
  executionTime?: number;
}

/** Classifies an answer about a job and records what it shows. */
export function observe(env: BehaviourEnv, r: ClientResponse): 'terminal' | 'live' | 'expired' | 'other' {
  if (r.status === 404) {
    env.rec.expirySeen(env.target.now());
    return 'expired';
  }
  if (r.status !== 200) return 'other';
  const b = r.body as StatusLike | undefined;
  if (!b || typeof b.status !== 'string') return 'other';
  if (!TERMINAL.has(b.status)) return 'live';
  env.rec.jobTerminal(env.target.now(), b.status, b.delayTime, b.executionTime, b.id);
  return 'terminal';
}

export function startGiveUp(env: BehaviourEnv, s: Session, giveUpMs: number | undefined): void {
  if (giveUpMs !== undefined) env.target.at(s.intendedMs + giveUpMs, () => !s.done && s.end('gave-up'));
}

/** After a terminal status: /retry it if allowed and wanted (then `resume`), else end the session. */
export function onTerminal(env: BehaviourEnv, s: Session, o: Opts, job: JobCtx, status: string, timeoutMs: number, resume: () => void): void {
  if ((status !== 'FAILED' && status !== 'TIMED_OUT') || job.retriesLeft <= 0) return s.end(status);
  job.retriesLeft--;
  call(env, s, o, { op: 'retry', method: 'POST', path: `/retry/${job.id}`, timeoutMs }, (r) => {
    if (r.status !== 200) return s.end(status);
    env.rec.retriedByClient();
    resume();
  });
}

/** Schedules the cancel of `spec` (if this session draws it). */
export function maybeCancel(env: BehaviourEnv, s: Session, o: Opts, job: JobCtx, spec: { afterMs: number; probability: number } | undefined, timeoutMs: number): void {
  if (!spec || !(spec.probability >= 1 || env.rng.next() < spec.probability)) return;
  env.target.at(job.acceptedAtMs + spec.afterMs, () => {
    if (s.done) return;
    const sentMs = env.target.now();
    call(env, s, o, { op: 'cancel', method: 'POST', path: `/cancel/${job.id}`, timeoutMs }, (r) => {
      if (r.status === 200 && (r.body as StatusLike).status === 'CANCELLED') env.rec.cancelled(env.target.now() - sentMs);
    });
  });
}

/** Polls `/status` until the job is terminal (then `onTerminal`), expired, or the session ends. */
export function pollUntilTerminal(env: BehaviourEnv, s: Session, o: Opts, job: JobCtx, poll: z.infer<typeof pollSchema>, timeoutMs: number): void {
  new Poller(env, s, o, job, poll, timeoutMs).next();
}

/**
 * One job's polling. The request object and both callbacks are made once per job, not once per
 * poll: polls are most of the requests of a typical run, and allocation is what the run loop pays
 * for most (profiled).
 */
class Poller {
  private attempt = 1;
  private readonly req: TargetRequest;
  private readonly fire = (): void => {
    if (!this.s.done) call(this.env, this.s, this.o, this.req, this.answer);
  };
  private readonly answer = (r: ClientResponse): void => {
    const { env, s } = this;
    const k = observe(env, r);
    if (k === 'expired') return s.end('expired');
    if (k === 'terminal') {
      this.attempt = 1;
      return onTerminal(env, s, this.o, this.job, (r.body as StatusLike).status!, this.timeoutMs, () => this.next());
    }
    this.attempt++;
    this.next();
  };

  constructor(
    private readonly env: BehaviourEnv, private readonly s: Session, private readonly o: Opts, private readonly job: JobCtx,
    private readonly poll: z.infer<typeof pollSchema>, private readonly timeoutMs: number,
  ) {
    this.req = { op: 'status', method: 'GET', path: `/status/${job.id}`, timeoutMs };
  }

  next(): void {
    this.env.target.at(this.env.target.now() + backoffMs(this.poll, this.attempt, this.env.rng), this.fire);
  }
}
