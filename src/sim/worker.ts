/** A simulated worker of an endpoint. */
import type { WorkerState } from '../contract/sim-events.js';
import type { Job } from './job.js';
import type { Timer } from '../lib/scheduler.js';
import type { LlmEngine } from './llm-engine.js';

/** What happens when a run's timer fires, decided at its start. */
export type RunEnd = 'complete' | 'timeout' | 'crash';

/**
 * One job's run on a worker and its end timer: the worker itself for its first job, a `RunSlot`
 * for each further one (`workerConcurrency` > 1). Jobs of an engine (llm-engine.ts) have none:
 * the engine times them.
 */
export interface Run extends Timer {
  job: Job | undefined;
  runEnd: RunEnd;
  readonly worker: Worker;
  /**
   * When its job started, as the endpoint's count of starts: the order jobs started in, also
   * within one ms (a crash re-queues a worker's jobs in that order).
   */
  startOrder: number;
}

/** A further run slot of a worker that holds several jobs at once (reused for the worker's whole life). */
export class RunSlot implements Run {
  job: Job | undefined = undefined;
  runEnd: RunEnd = 'complete';
  startOrder = 0;
  atMs = 0;
  seq = 0;
  idx = -1;
  wheel = false;
  prev: Timer | undefined = undefined;
  next: Timer | undefined = undefined;
  readonly arg: RunSlot = this;

  constructor(
    readonly worker: Worker,
    readonly fn: (r: Run) => void,
  ) {}
}

/**
 * A class, not an object literal, so its id is built only when something shows it (a status
 * body, an event): a REQUEST_COUNT endpoint starts a worker per job, and most are never named.
 *
 * A worker is also its own timer (the `Timer` fields, owned by the scheduler): it ends the cold
 * start while initializing, then each run. When a job ends among thousands running, the timer,
 * the worker and the job are each a cache miss, one after the other; one object fewer is one
 * miss fewer on every completion.
 */
export class Worker implements Run {
  state: WorkerState = 'initializing';
  /** The job of its first run slot (the worker is that slot's timer). */
  job: Job | undefined = undefined;
  /** Jobs it holds now (at most the endpoint's workerConcurrency): running, or waiting in its engine. */
  held = 0;
  /** Its run slots, itself first, when it holds several jobs at once without an engine; else undefined. */
  runs: Run[] | undefined = undefined;
  /** Its batching engine (an `llm.engine` endpoint), created with the worker and kept (reset) across renewals; replaced when it is placed on another GPU type. */
  engine: LlmEngine | undefined = undefined;
  /** The GPU type its engine is for (an index of the endpoint's gpus). */
  engineGpu = 0;
  /** The GPU type it is placed on (an index of the endpoint's gpus, worker-pool.ts), from its start to its stop; -1 before. */
  gpu = -1;
  /** Throttled waiting for room on a GPU type (worker-pool.ts), not by a fault. */
  hostless = false;
  readonly worker: Worker = this;
  /** When the worker last became idle (the idle timeout counts from here). */
  idleSinceMs = 0;
  /**
   * When its latest start (cold, FlashBoot, restart) began, until it takes its first job after
   * it; -1 from then on (the job's `coldStartMs`: endpoint.ts). Until that job, `idleSinceMs` is
   * when the start ended.
   */
  bootFromMs = -1;
  /**
   * Its latest start takes longer than the endpoint's initTimeoutMs: its timer ends the start at
   * that point, unhealthy (worker-pool.ts). Stays true once it is unhealthy.
   */
  startTimesOut = false;
  /** When its state last changed, and its billed ms since it started (kept while the pool's lives are watched: worker-pool.ts). */
  sinceMs = 0;
  billedMs = 0;
  /** What happens when the run ends (the timer fires while running), decided at its start. */
  runEnd: RunEnd = 'complete';
  startOrder = 0;
  private name: string | undefined = undefined;
  /**
   * The pool's list of its workers, in the order they were added (worker-pool.ts): links, and
   * the number of the add (-1 once removed).
   */
  poolPrev: Worker | undefined = undefined;
  poolNext: Worker | undefined = undefined;
  poolSeq = -1;
  // Timer fields (scheduler.ts).
  atMs = 0;
  seq = 0;
  idx = -1;
  wheel = false;
  prev: Timer | undefined = undefined;
  next: Timer | undefined = undefined;
  readonly arg: Worker = this;

  constructor(
    /** `{endpoint id}-w`: the id without the number. */
    readonly prefix: string,
    /** The worker's number in its endpoint, from 1. */
    public n: number,
    /** Called when the timer fires: the cold start or the run is over (see `state`). */
    readonly fn: (r: Run) => void,
  ) {}

  /**
   * This object as a new worker numbered `n` (a stopped worker's object, reused: a REQUEST_COUNT
   * endpoint stops and starts a worker per job). Its timer is not armed (`stop` cancelled it).
   */
  renew(n: number): this {
    this.n = n;
    this.name = undefined;
    this.state = 'initializing';
    this.job = undefined;
    this.held = 0;
    this.idleSinceMs = 0;
    this.bootFromMs = -1;
    this.startTimesOut = false;
    this.runEnd = 'complete';
    this.engine?.reset();
    return this;
  }

  /** `{endpoint id}-w{n}`. */
  get id(): string {
    return (this.name ??= workerId(this.prefix, this.n));
  }
}

export function workerIdPrefix(endpointId: string): string {
  return `${endpointId}-w`;
}

/** The id of worker `n` (the string is flat: ids are compared and written often). */
export function workerId(prefix: string, n: number): string {
  return `${prefix}${n}`;
}

/** A free run slot of `w` (itself when it holds one job at a time). */
export function freeRun(w: Worker): Run {
  const runs = w.runs;
  if (runs === undefined) return w;
  for (const r of runs) if (r.job === undefined) return r;
  throw new Error(`worker ${w.id} has no free run slot`);
}

/** The run slot of `j` on `w`. */
export function runOf(w: Worker, j: Job): Run {
  const runs = w.runs;
  if (runs === undefined) return w;
  for (const r of runs) if (r.job === j) return r;
  throw new Error(`job ${j.id} is not on worker ${w.id}`);
}

/**
 * The jobs `w` holds besides `j`, in the order they started (a crash re-queues them). Not by
 * start time and submission: jobs a crash sent back start in the same ms out of submission order.
 */
export function heldBy(w: Worker, j: Job): Job[] {
  const runs: Run[] = [];
  for (const r of w.runs ?? []) if (r.job !== undefined && r.job !== j) runs.push(r);
  return runs.sort((a, b) => a.startOrder - b.startOrder).map((r) => r.job!);
}
