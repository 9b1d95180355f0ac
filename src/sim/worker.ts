/** A simulated worker of an endpoint. */
import type { Job } from './job.js';
import type { Timer } from './scheduler.js';

/**
 * initializing: cold (or FlashBoot) start; idle: ready, no job; running: has a job;
 * throttled: wanted but no host capacity; unhealthy: crash-looping, never takes a job.
 */
export type WorkerState = 'initializing' | 'idle' | 'running' | 'throttled' | 'unhealthy';

/**
 * A class, not an object literal, so its id is built only when something shows it (a status
 * body, an event): a REQUEST_COUNT endpoint starts a worker per job, and most are never named.
 */
export class Worker {
  state: WorkerState = 'initializing';
  job: Job | undefined = undefined;
  /** Ends the cold start (armed while initializing). */
  timer: Timer | undefined = undefined;
  /** When the worker last became idle (the idle timeout counts from here). */
  idleSinceMs = 0;
  /** Ends the current run; created for the first run and re-armed for each one after. */
  runTimer: Timer | undefined = undefined;
  /** What happens when `runTimer` fires, decided at the start of the run. */
  runEnd: 'complete' | 'timeout' | 'crash' = 'complete';
  private name: string | undefined = undefined;

  constructor(
    /** `{endpoint id}-w`: the id without the number. */
    readonly prefix: string,
    /** The worker's number in its endpoint, from 1. */
    public n: number,
  ) {}

  /**
   * This object as a new worker numbered `n` (a stopped worker's object, reused: a REQUEST_COUNT
   * endpoint stops and starts a worker per job). Its two timers are kept, to be re-armed.
   */
  renew(n: number): this {
    this.n = n;
    this.name = undefined;
    this.state = 'initializing';
    this.job = undefined;
    this.idleSinceMs = 0;
    this.runEnd = 'complete';
    return this;
  }

  /** `{endpoint id}-w{n}`. */
  get id(): string {
    return this.name ??= workerId(this.prefix, this.n);
  }
}

export function workerIdPrefix(endpointId: string): string {
  return `${endpointId}-w`;
}

/** The id of worker `n` (the string is flat: ids are compared and written often). */
export function workerId(prefix: string, n: number): string {
  return `${prefix}${n}`;
}
