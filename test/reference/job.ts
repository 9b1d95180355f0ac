/**
 * The reference model's job record and its status body (FACTS "Response bodies"). One plain
 * object per job, never moved, never compacted; the model keeps them all in one array.
 */
import type { Planned } from './types.js';

export type RefStatus = 'IN_QUEUE' | 'IN_PROGRESS' | 'COMPLETED' | 'FAILED' | 'CANCELLED' | 'TIMED_OUT';

export const isEnded = (s: RefStatus): boolean => s === 'COMPLETED' || s === 'FAILED' || s === 'CANCELLED' || s === 'TIMED_OUT';

/** policy.ttl's default (spec §2): 24 h from submission. */
export const DEFAULT_TTL_MS = 86_400_000;

export interface RefJob {
  /** Position in submission order: the model's id (`#index` in bodies). */
  index: number;
  kind: 'run' | 'runsync' | 'openai' | 'lb';
  input: Record<string, unknown>;
  durationMs: number;
  fail: boolean | string | undefined;
  crash: boolean;
  ttlMs: number;
  executionTimeoutMs: number;
  lowPriority: boolean;
  submittedAtMs: number;
  status: RefStatus;
  /** Removed (ttl, retention, purge): unknown to every request from then on. */
  gone: boolean;
  /**
   * When the job is removed: submission + ttl while it is queued or running; once it ended, the
   * earlier of that and the end of its retention (or what `/status?ttl` made of it).
   */
  deadlineMs: number;
  /** Order among events of the same instant: the model's counter when the deadline was set. */
  deadlineStamp: number;
  deadlineIsTtl: boolean;
  /** Retention set by `/status?ttl` while the job had not ended (used at each end). */
  retentionOverrideMs: number | undefined;
  enqueuedAtMs: number;
  startedAtMs: number | undefined;
  executionTimeMs: number | undefined;
  /** Number of the worker running it, or of the one that ran it last. */
  worker: number | undefined;
  /** The current run's end: when, how, and its order stamp. */
  run: { atMs: number; outcome: 'complete' | 'timeout' | 'crash'; stamp: number } | undefined;
  output: unknown;
  error: string | undefined;
  /** Worker crashes that sent it back to the queue (the body's `retries`). */
  retries: number;
  /** The crash directive fired in this submission or retry (the re-run does not crash). */
  crashed: boolean;
  /** The token model (an `llm:` endpoint): the request's cap, this run's tokens, how many landed, the next one's event. */
  maxTokens: number | undefined;
  tokens: { count: number; capped: boolean; atMs: number[] } | undefined;
  tokensDone: number;
  nextToken: { atMs: number; k: number; stamp: number } | undefined;
  /** Prompt tokens its worker's engine prefills (characters / 4 of `prompt` or the messages' contents). */
  promptTokens: number;
  /** With prefix caching: its prompt's text (the messages' contents, or `prompt`), and the prompt tokens found cached when its current run joined a batch. */
  promptText: string;
  cachedTokens: number | undefined;
  /** On an engine: the exact instant of each token of the current run so far (the engine's own list). */
  engineTimes: number[] | undefined;
  /** On an engine with a KV cache: why its prompt was refused in its current run (it fails with this). */
  refused: string | undefined;
  /** A load-balancing endpoint's request (model-balancer.ts). */
  lb?: RefLbRequest;
}

/** What the balancer knows of a request: who asked, what the worker answers, its wait. */
export interface RefLbRequest {
  /** The request's number (its late answer names it). */
  req: number;
  /** `/ping` answers `{"status": "healthy"}`; a custom route echoes the body. */
  ping: boolean;
  /** The worker a strict request waits for alone (-1: none). */
  pinnedTo: number;
  /** When its wait ends, and how: 2 min in the shared wait, 5 min pinned, at once when its pinned worker stopped. */
  wait: (Planned & { cause: 'no-workers' | 'worker-timeout' | 'worker-gone' }) | undefined;
  /** Why the balancer ended it, if it did (its answer is then the balancer's). */
  cause?: 'no-workers' | 'timeout' | 'dropped' | 'worker-timeout' | 'worker-gone';
}

export const jobId = (index: number): string => `#${index}`;
export const workerName = (n: number): string => `ep-w${n}`;

/** The status body of `/status`, `/status-sync`, `/runsync` (ids as `#index`). */
export function refBody(j: RefJob, nowMs: number): Record<string, unknown> {
  const b: Record<string, unknown> = { id: jobId(j.index), status: j.status };
  if (j.startedAtMs !== undefined) b.delayTime = j.startedAtMs - j.enqueuedAtMs;
  if (j.status === 'IN_PROGRESS') b.executionTime = nowMs - j.startedAtMs!;
  else if (j.executionTimeMs !== undefined) b.executionTime = j.executionTimeMs;
  if (j.worker !== undefined) b.workerId = workerName(j.worker);
  if (j.status === 'COMPLETED') b.output = j.output;
  if (j.error !== undefined && j.status !== 'IN_PROGRESS') b.error = j.error;
  if (j.retries > 0) b.retries = j.retries;
  return b;
}
