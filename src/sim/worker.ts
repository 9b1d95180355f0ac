/** A simulated worker of an endpoint. */
import type { Job } from './job.js';
import type { Timer } from './scheduler.js';

/**
 * initializing: cold (or FlashBoot) start; idle: ready, no job; running: has a job;
 * throttled: wanted but no host capacity; unhealthy: crash-looping, never takes a job.
 */
export type WorkerState = 'initializing' | 'idle' | 'running' | 'throttled' | 'unhealthy';

export interface Worker {
  readonly id: string;
  state: WorkerState;
  job: Job | undefined;
  /** Cold start end, while initializing. */
  timer: Timer | undefined;
  /** When the worker last became idle (the idle timeout counts from here). */
  idleSinceMs: number;
  /** Ends the current run; created for the first run and re-armed for each one after. */
  runTimer: Timer | undefined;
  /** What happens when `runTimer` fires, decided at the start of the run. */
  runEnd: 'complete' | 'timeout' | 'crash';
}
