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
  /** Cold start end, idle timeout or fault end, depending on the state. */
  timer: Timer | undefined;
  /** Index in the pool's idle stack while idle (-1 otherwise): O(1) removal. */
  idleIdx: number;
}
