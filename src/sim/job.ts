/** The job record and its states (docs/api.md). */
import type { BalancerCause, JobKind, JobStatus } from '../contract/sim-events.js';
import type { Timer } from '../lib/scheduler.js';
import type { TokenRun } from './token-model.js';
import type { SimDirectives } from './workload.js';

export const isTerminal = (s: JobStatus): boolean => s === 'COMPLETED' || s === 'FAILED' || s === 'CANCELLED' || s === 'TIMED_OUT';

/** Something held until the job changes: a runsync, a status-sync or a stream long-poll. */
export interface JobWaiter {
  /** Called on a streamed chunk, a terminal state, or the job's removal (`job` undefined). True: done, drop me. */
  update(change: 'chunk' | 'terminal' | 'gone'): boolean;
  /**
   * Does it want each chunk as it lands? An engine's tokens are then told one by one (an event
   * each); otherwise a waiter hears only of the end (llm-engine.ts `watch`).
   */
  readonly wantsChunks: boolean;
}

/**
 * Fields most jobs never use (webhook, directives, policy, held requests, `/status?ttl=`,
 * streaming, crashes): one object created on first use (`extras`). Every retained job (a day of
 * traffic keeps millions for 30 min) then carries one slot for them instead of eleven.
 */
export interface JobExtras {
  webhook: string | undefined;
  directives: SimDirectives | undefined;
  waiters: JobWaiter[] | undefined;
  /** Retention after completion set by `/status?ttl=` before the job ended. */
  retentionOverrideMs: number | undefined;
  /** Partial outputs not yet drained by `/stream`. */
  streamBuffer: unknown[] | undefined;
  /**
   * Its own ttl timer (a non-default `policy.ttl`; the default one is swept: ttl-sweep.ts), or
   * the retention deadline of a result taken out of the columns again (`Retention.ownedAgain`).
   */
  ttlTimer: Timer | undefined;
  /** `policy.ttl` when not the default (DEFAULT_TTL_MS). */
  ttlMs: number | undefined;
  /** `policy.executionTimeout` when given (else the endpoint's). */
  executionTimeoutMs: number | undefined;
  lowPriority: boolean;
  /** Worker crashes that sent the job back to the queue. */
  retries: number;
  /** The `crash` directive fires once; the re-run does not crash. */
  crashed: boolean;
  /** Chunks produced so far in the current run (streaming jobs, or tokens of an `llm:` endpoint; `chunksOf`). */
  chunksDone: number;
  /** The request's cap on tokens (`max_tokens`), on an `llm:` endpoint. */
  maxTokens: number | undefined;
  /** The request's `ignore_eos`: its answer is `max_tokens` long exactly (token-model.ts). */
  ignoreEos: boolean;
  /** The request's prompt tokens, on an `llm.engine` endpoint (its worker prefills them). */
  promptTokens: number | undefined;
  /** The prompt's KV cache block ids (contract/prompt-blocks.ts), on an endpoint with `llm.engine.prefixCaching`. */
  promptBlocks: readonly number[] | undefined;
  /** Prompt tokens its worker's prefix cache held when the current run joined its batch (prefix caching only). */
  cachedTokens: number | undefined;
  /** The current run's tokens, on an `llm:` endpoint (token-model.ts); their times are dropped once it ends. */
  tokens: TokenRun | undefined;
  /** A load-balancing endpoint's request: its wait at the balancer and how it ended there (balancer.ts). */
  lb: BalancerWait | undefined;
}

/** A load-balancing endpoint's request at its balancer (balancer.ts). */
export interface BalancerWait {
  /** The end of its wait for a worker (2 min for any worker; 5 min for its strict affinity worker), while it waits. */
  timer: Timer | undefined;
  /** The worker number its strict affinity pins it to, while it waits for that worker; -1 otherwise. */
  pinnedTo: number;
  /** Why the balancer ended it without a worker's answer (undefined: a worker answered). */
  cause: BalancerCause | undefined;
}

/** Default policy.ttl: 24 h from submission. */
export const DEFAULT_TTL_MS = 86_400_000;

/** Type-only brand (no property at run time): only the table's stored object is a `Job`. */
declare const OWNED: unique symbol;

/**
 * A job as `JobTable.get` hands it out: maybe a snapshot rebuilt from the columns, which the
 * table does not keep, so a change to it would be lost. To change a job, take `JobTable.own(j)`
 * (the compiler enforces it: a `ReadonlyJob` is not a `Job`). Costs nothing at run time.
 */
export type ReadonlyJob = Readonly<Omit<Job, typeof OWNED | 'x'>> & { readonly x: Readonly<JobExtras> | undefined };

export interface Job {
  readonly [OWNED]: true;
  /**
   * The id: the submission's id string (the one the API answered with) from submission on; ''
   * in a snapshot of a compacted job until the table fills it in (`JobTable.idOf`, `get`).
   * Lookups by id compare it first: a client that sends the string it was given back is matched
   * without building or parsing an id. It lives as long as the job object (seconds for most).
   */
  id: string;
  /** Sequence number carried by the id (ids.ts): the job table's index. */
  readonly seq: number;
  readonly kind: JobKind;
  status: JobStatus;
  readonly input: unknown;
  /** Handed to the worker as is; never echoed. */
  readonly s3Config: unknown;
  readonly submittedAtMs: number;
  /**
   * When the job last entered the queue (submission, crash re-queue or retry). Kept after the
   * start: the delay time is `startedAtMs - enqueuedAtMs` (`delayOf`), not a field of its own.
   * Every field costs: one more on each of millions of retained jobs measured ~2% of throughput.
   */
  enqueuedAtMs: number;
  startedAtMs: number | undefined;
  /** ms running, once terminal (or so far, while running). */
  executionTimeMs: number | undefined;
  output: unknown;
  /**
   * The failure message once FAILED or TIMED_OUT; while IN_PROGRESS, the run's planned failure
   * (undefined: it will succeed), which status bodies do not show.
   */
  error: string | undefined;
  /** Virtual time at which the job is removed; the single source of truth for expiry. GONE once removed. */
  expiresAtMs: number;
  /**
   * The worker of the current run; once the run ended, that worker's number (its id is the
   * body's `workerId`: `JobTable.workerIdOf`). Not the worker itself: stopped workers are reused
   * for later starts (worker-pool.ts). The object is a `Worker` (worker.ts, which imports this
   * file): only its number and id are read through the job.
   */
  worker: { readonly n: number; readonly id: string } | number | undefined;
  // --- scheduling state (owned by the endpoint) ---
  /** Intrusive links of the job queue. */
  prev: Job | undefined;
  next: Job | undefined;
  /** Rarely used fields, created on first use: see JobExtras. */
  x: JobExtras | undefined;
}

/**
 * A new queued job. An object literal (one shape, shared with `snapshotJob`): most jobs end and
 * are compacted into the job table's columns within seconds, so the object dies young.
 */
export function newJob(seq: number, kind: JobKind, input: unknown, s3Config: unknown, nowMs: number): Job {
  return {
    id: '',
    seq,
    kind,
    status: 'IN_QUEUE',
    input,
    s3Config,
    submittedAtMs: nowMs,
    enqueuedAtMs: nowMs,
    startedAtMs: undefined,
    executionTimeMs: undefined,
    output: undefined,
    error: undefined,
    expiresAtMs: nowMs + DEFAULT_TTL_MS,
    worker: undefined,
    prev: undefined,
    next: undefined,
    x: undefined,
  } as Omit<Job, typeof OWNED> as Job;
}

/**
 * A compacted job rebuilt from the job table's columns (job-table.ts). What a compacted job no
 * longer has is gone for good: `input` and `s3Config` (undefined), `submittedAtMs` (NaN); its
 * delay is kept as `startedAtMs - enqueuedAtMs` with `enqueuedAtMs` 0; its worker's id is the
 * table's (`JobTable.workerIdOf`).
 */
export function snapshotJob(
  seq: number,
  kind: JobKind,
  status: JobStatus,
  delayMs: number | undefined,
  executionTimeMs: number | undefined,
  output: unknown,
  expiresAtMs: number,
): ReadonlyJob {
  return {
    id: '',
    seq,
    kind,
    status,
    input: undefined,
    s3Config: undefined,
    submittedAtMs: NaN,
    enqueuedAtMs: 0,
    startedAtMs: delayMs,
    executionTimeMs,
    output,
    error: undefined,
    expiresAtMs,
    worker: undefined,
    prev: undefined,
    next: undefined,
    x: undefined,
  };
}

/** `expiresAtMs` of a removed job (expired or purged). */
export const GONE = -1;
export const isGone = (j: ReadonlyJob): boolean => j.expiresAtMs === GONE;
/** ms in the queue before the last start (spec `delayTime`), once started. */
export const delayOf = (j: ReadonlyJob): number | undefined => (j.startedAtMs === undefined ? undefined : j.startedAtMs - j.enqueuedAtMs);
export const chunksOf = (j: ReadonlyJob): number => (j.x === undefined ? 0 : j.x.chunksDone);

export const ttlOf = (j: ReadonlyJob): number => j.x?.ttlMs ?? DEFAULT_TTL_MS;
export const isLowPriority = (j: ReadonlyJob): boolean => j.x !== undefined && j.x.lowPriority;
export const retriesOf = (j: ReadonlyJob): number => (j.x === undefined ? 0 : j.x.retries);

/** The job's rarely used fields, created on first use. */
export function extras(j: Job): JobExtras {
  return (j.x ??= {
    webhook: undefined,
    directives: undefined,
    waiters: undefined,
    retentionOverrideMs: undefined,
    streamBuffer: undefined,
    ttlTimer: undefined,
    ttlMs: undefined,
    executionTimeoutMs: undefined,
    lowPriority: false,
    retries: 0,
    crashed: false,
    chunksDone: 0,
    maxTokens: undefined,
    ignoreEos: false,
    promptTokens: undefined,
    promptBlocks: undefined,
    cachedTokens: undefined,
    tokens: undefined,
    lb: undefined,
  });
}
