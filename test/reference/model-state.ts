/**
 * The reference model's state (model.ts tells the whole model): every job in one array, the queue
 * as one list, the workers, the held requests, and the counter that orders events of one instant.
 * The model is one class in layers, a concept a file: state, workers and the scaler
 * (model-workers.ts), held requests (model-holds.ts), the job lifecycle (model-jobs.ts), requests
 * and time (model.ts).
 */
import type { RefEngine } from './engine.js';
import type { RefJob } from './job.js';
import { RefLimits, type RefOp } from './limits.js';
import type { Planned, RefChat, RefConfig, RefLateAnswer } from './types.js';

export interface Hold {
  req: number;
  op: RefOp;
  job: RefJob;
  untilMs: number;
  stamp: number;
  /** An OpenAI request: what it asked, and (streamed) the instant each token was sent. */
  chat?: { body: RefChat; sentAt: number[] };
}

export interface Worker {
  n: number;
  /**
   * Running while it holds a job; idle when it holds none; unhealthy for good once a start ran
   * past initTimeoutMs (it keeps its place among the workers, counted against workersMax);
   * throttled while it waits for room on a GPU type (model-hosts.ts).
   */
  state: 'initializing' | 'idle' | 'running' | 'unhealthy' | 'throttled';
  /** The GPU type it is placed on (an index of the endpoint's types, model-hosts.ts), from its placement to its stop; -1 while it waits for one. */
  gpu: number;
  /** The jobs it holds (at most workerConcurrency), in the order they started. */
  jobs: RefJob[];
  /** Its batching engine (llm.engine), new with each worker when it is placed: its type's engine. */
  engine: RefEngine | undefined;
  /** While initializing: when it is ready (or, `timesOut`, turns unhealthy), and the order stamp of that event. */
  boot: (Planned & { timesOut: boolean }) | undefined;
  /** When it last became idle (the idle timeout counts from here). */
  idleSinceMs: number;
}

export abstract class RefState {
  nowMs = 0;
  readonly jobs: RefJob[] = [];
  /** Queued jobs; the next to run is the first normal one, else the first lowPriority one. */
  protected queue: RefJob[] = [];
  /** Every worker, in start order. */
  protected workers: Worker[] = [];
  /** Idle workers, oldest idle first; a job goes to the most recently idle (the last). */
  protected idle: Worker[] = [];
  protected holds: Hold[] = [];
  readonly late: RefLateAnswer[] = [];
  /** Sequences its engines preempted (KV cache full), in all. */
  preemptions = 0;
  readonly limits: RefLimits;
  protected readonly counters = { completed: 0, failed: 0, retried: 0 };
  private stamps = 0;

  constructor(protected readonly cfg: RefConfig) {
    this.limits = new RefLimits(cfg.limits);
  }

  /** The order counter, taken: whatever is set now comes after whatever was set before at the same instant. */
  protected stamp(): number {
    return this.stamps++;
  }

  /** A job is known until its deadline (a result due now is already gone for readers). */
  protected find(index: number): RefJob | undefined {
    const j = this.jobs[index];
    return j && !j.gone && j.deadlineMs > this.nowMs ? j : undefined;
  }

  /** The next job to run: normal jobs first, each priority in queue order. Taken off the queue. */
  protected next(): RefJob | undefined {
    const j = this.queue.find((q) => !q.lowPriority) ?? this.queue[0];
    if (j) this.queue = this.queue.filter((q) => q !== j);
    return j;
  }

  protected count(state: Worker['state']): number {
    return this.workers.filter((w) => w.state === state).length;
  }

  /** Jobs in progress: every job a worker holds (/health `inProgress`). */
  protected inProgress(): number {
    return this.workers.reduce((n, w) => n + w.jobs.length, 0);
  }

  protected workerOf(j: RefJob): Worker | undefined {
    return this.workers.find((w) => w.jobs.includes(j));
  }

  /** Stream requests (on an llm endpoint) held on `j`. */
  protected streamsOf(j: RefJob): Hold[] {
    return this.cfg.llm ? this.holds.filter((h) => h.job === j && h.chat?.body.stream) : [];
  }

  protected setDeadline(j: RefJob, atMs: number, isTtl: boolean): void {
    j.deadlineMs = atMs;
    j.deadlineIsTtl = isTtl;
    j.deadlineStamp = this.stamp();
  }
}
