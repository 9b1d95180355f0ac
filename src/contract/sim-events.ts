/**
 * Typed domain events. The core publishes them; telemetry, reports and tests subscribe. The core
 * knows nothing of prom-client or OTel. Every event carries its virtual time `atMs`.
 */
/**
 * Who asked for the job: `/run`, `/runsync`, the OpenAI-compatible route (of a queue endpoint, or
 * of a load-balancing endpoint's worker), or any other request to a load-balancing endpoint (`lb`).
 */
export type JobKind = 'run' | 'runsync' | 'openai' | 'lb';
/** The job statuses of the API. */
export type JobStatus = 'IN_QUEUE' | 'IN_PROGRESS' | 'COMPLETED' | 'FAILED' | 'CANCELLED' | 'TIMED_OUT';
/**
 * initializing: cold (or FlashBoot) start; idle: ready, no job; running: has a job;
 * throttled: wanted but no host capacity; unhealthy: crash-looping, never takes a job.
 */
export type WorkerState = 'initializing' | 'idle' | 'running' | 'throttled' | 'unhealthy';
/** Every worker state, in the order reports and series list them. */
export const WORKER_STATES: readonly WorkerState[] = ['running', 'idle', 'initializing', 'throttled', 'unhealthy'];

export type LimitCause = 'rate' | 'concurrency' | 'queue';

/**
 * Why a load-balancing endpoint's request got no answer from a worker (docs/endpoint.md
 * "Load-balancing endpoints"): no worker could take it within 2 min (`no-workers`); it ran past
 * the 5.5-min limit (`timeout`); its worker went down with it (`dropped`); its strict affinity
 * worker stayed at capacity for 5 min (`worker-timeout`) or is gone (`worker-gone`).
 */
export type BalancerCause = 'no-workers' | 'timeout' | 'dropped' | 'worker-timeout' | 'worker-gone';
export const BALANCER_CAUSES: readonly BalancerCause[] = ['no-workers', 'timeout', 'dropped', 'worker-timeout', 'worker-gone'];

export type SimEvent =
  | { type: 'job.accepted'; atMs: number; endpointId: string; jobId: string; kind: JobKind; lowPriority: boolean }
  | {
      type: 'job.started';
      atMs: number;
      endpointId: string;
      jobId: string;
      workerId: string;
      delayTimeMs: number;
      /**
       * The part of this run's queue wait (`delayTimeMs`) during which the worker that took it was
       * initializing (cold or FlashBoot start, crash restart): the job is the worker's first since
       * that start. 0 for a job an already-ready worker took. Always ≤ `delayTimeMs`.
       */
      coldStartMs: number;
    }
  | { type: 'job.progressed'; atMs: number; endpointId: string; jobId: string; chunk: number }
  | {
      type: 'job.finished';
      atMs: number;
      endpointId: string;
      jobId: string;
      status: JobStatus;
      delayTimeMs: number | undefined;
      executionTimeMs: number | undefined;
    }
  | { type: 'job.requeued'; atMs: number; endpointId: string; jobId: string; reason: 'crash' | 'retry' }
  | { type: 'job.expired'; atMs: number; endpointId: string; jobId: string; reason: 'retention' | 'ttl'; status: JobStatus }
  | { type: 'job.purged'; atMs: number; endpointId: string; jobId: string }
  | { type: 'request.limited'; atMs: number; endpointId: string; operation: string; cause: LimitCause }
  | {
      type: 'webhook.attempt';
      atMs: number;
      endpointId: string;
      jobId: string;
      attempt: number;
      /** delivered: got a 200; failed: will retry; gave-up: the last attempt failed. */
      outcome: 'delivered' | 'failed' | 'gave-up';
      httpStatus?: number;
      error?: string;
    }
  /** A load-balancing endpoint's request ended by its balancer; `jobId` undefined: refused on arrival (its strict worker is gone). */
  | { type: 'balancer.failed'; atMs: number; endpointId: string; jobId: string | undefined; cause: BalancerCause }
  | { type: 'worker.state'; atMs: number; endpointId: string; workerId: string; from: WorkerState | 'none'; to: WorkerState | 'stopped' };

export type SimEventListener = (e: SimEvent) => void;
