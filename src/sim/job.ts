/** The job record and its states (spec §3, FACTS "Statuses"). */
import type { JobKind } from './events.js';
import type { Timer } from './scheduler.js';
import type { ExecutionPlan, SimDirectives } from './workload.js';
import type { Worker } from './worker.js';

export type JobStatus = 'IN_QUEUE' | 'IN_PROGRESS' | 'COMPLETED' | 'FAILED' | 'CANCELLED' | 'TIMED_OUT';

export const TERMINAL: ReadonlySet<JobStatus> = new Set(['COMPLETED', 'FAILED', 'CANCELLED', 'TIMED_OUT']);
export const isTerminal = (s: JobStatus): boolean =>
  s === 'COMPLETED' || s === 'FAILED' || s === 'CANCELLED' || s === 'TIMED_OUT';

/** Something held until the job changes: a runsync, a status-sync or a stream long-poll. */
export interface JobWaiter {
  /** Called on a streamed chunk, a terminal state, or the job's removal (`job` undefined). True: done, drop me. */
  update(change: 'chunk' | 'terminal' | 'gone'): boolean;
}

export interface Job {
  readonly id: string;
  readonly kind: JobKind;
  status: JobStatus;
  readonly input: unknown;
  readonly webhook: string | undefined;
  /** Handed to the worker as is; never echoed (spec §2). */
  readonly s3Config: unknown;
  readonly lowPriority: boolean;
  readonly executionTimeoutMs: number;
  readonly ttlMs: number;
  readonly directives: SimDirectives | undefined;
  readonly submittedAtMs: number;
  /** When the job last entered the queue (submission, crash re-queue or retry). */
  enqueuedAtMs: number;
  startedAtMs: number | undefined;
  finishedAtMs: number | undefined;
  /** ms in the queue before the last start. */
  delayTimeMs: number | undefined;
  /** ms running, once terminal (or so far, while running). */
  executionTimeMs: number | undefined;
  workerId: string | undefined;
  output: unknown;
  error: string | undefined;
  /** Worker crashes that sent the job back to the queue. */
  retries: number;
  /** The `crash` directive fires once; the re-run does not crash. */
  crashed: boolean;
  /** Partial outputs not yet drained by `/stream`. */
  streamBuffer: unknown[] | undefined;
  /** Chunks produced so far in the current run. */
  chunksDone: number;
  /** Retention after completion set by `/status?ttl=` before the job ended. */
  retentionOverrideMs: number | undefined;
  /** Virtual time at which the job is removed; the single source of truth for expiry. */
  expiresAtMs: number;
  gone: boolean;
  // --- scheduling state (owned by the endpoint) ---
  worker: Worker | undefined;
  endTimer: Timer | undefined;
  /** The current run's plan, until it completes. */
  plan: ExecutionPlan | undefined;
  ttlTimer: Timer | undefined;
  waiters: JobWaiter[] | undefined;
  /** Intrusive links of the job queue. */
  prev: Job | undefined;
  next: Job | undefined;
  queued: boolean;
}
