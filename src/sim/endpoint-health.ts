/**
 * The body of an endpoint's `/health` (contract/health-body.ts), read off its counters, queue,
 * pool and balancer. Pure: it reads, never changes them.
 */
import type { HealthBody } from '../contract/health-body.js';
import type { Balancer } from './balancer.js';
import type { JobQueue } from './job-queue.js';
import type { WorkerCounts, WorkerPool } from './worker-pool.js';

/** What /health reads of an endpoint. */
export interface HealthSource {
  readonly counters: { readonly completed: number; readonly failed: number; readonly retried: number };
  readonly queue: JobQueue;
  readonly pool: WorkerPool;
  /** The endpoint's GPU types in priority order, when it lists them. */
  readonly gpus: readonly string[] | undefined;
  readonly balancer: Balancer | undefined;
}

export function healthBody(s: HealthSource): HealthBody {
  const c = s.pool.counts;
  return {
    jobs: {
      completed: s.counters.completed,
      failed: s.counters.failed,
      inProgress: s.pool.jobsHeld,
      inQueue: s.queue.length,
      retried: s.counters.retried,
    },
    workers: {
      idle: c.idle,
      initializing: c.initializing,
      ready: c.idle + c.running,
      running: c.running,
      throttled: c.throttled,
      unhealthy: c.unhealthy,
      ...(s.pool.countsByGpu && s.gpus ? { byGpu: workersByGpu(s.gpus, s.pool.countsByGpu) } : {}),
    },
    ...(s.balancer !== undefined ? { balancer: balancerHealth(s, s.balancer, c) } : {}),
  };
}

/**
 * /health's `balancer` (a load-balancing endpoint): requests waiting for a worker (pinned ones
 * included) and held by workers; workers as its health checks see them (healthy: ready;
 * initializing; unhealthy; a throttled worker has not started: it is none of these); the
 * requests it ended, by cause.
 */
function balancerHealth(s: HealthSource, b: Balancer, c: WorkerCounts): NonNullable<HealthBody['balancer']> {
  return {
    requests: { pending: b.pending, inFlight: s.pool.jobsHeld },
    workers: { healthy: c.idle + c.running, initializing: c.initializing, unhealthy: c.unhealthy },
    failed: { ...b.failed },
  };
}

/** /health's `workers.byGpu`: the placed workers of each GPU type by state, in the endpoint's order (those waiting for a host are in `throttled` only). */
function workersByGpu(gpus: readonly string[], counts: readonly WorkerCounts[]): NonNullable<HealthBody['workers']['byGpu']> {
  const out: NonNullable<HealthBody['workers']['byGpu']> = {};
  gpus.forEach((g, t) => {
    const c = counts[t]!;
    out[g] = { idle: c.idle, initializing: c.initializing, running: c.running, throttled: c.throttled, unhealthy: c.unhealthy };
  });
  return out;
}
