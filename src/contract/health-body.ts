import type { BalancerCause } from './sim-events.js';

/**
 * The body of a `/health` answer: what the simulator sends, and what the runner reads from any
 * endpoint (a real deployment may leave fields out or send other types, so the runner checks
 * each field it uses).
 */
export interface HealthBody {
  jobs: { completed: number; failed: number; inProgress: number; inQueue: number; retried: number };
  workers: {
    idle: number;
    initializing: number;
    ready: number;
    running: number;
    throttled: number;
    unhealthy: number;
    /**
     * loadlab's own: an endpoint that lists its GPU types (`gpus`), its workers on each type by
     * state, in priority order. A worker waiting for room on any type counts in `throttled` above only.
     */
    byGpu?: Record<string, { idle: number; initializing: number; running: number; throttled: number; unhealthy: number }>;
  };
  /**
   * loadlab's own, on a load-balancing endpoint (docs/endpoint.md "Load-balancing endpoints"):
   * requests waiting for a worker (`pending`, strict affinity ones included) and held by workers
   * (`inFlight`); workers as the balancer's health checks see them (a throttled worker has not
   * started and is none of these); requests the balancer ended, by cause, in all.
   */
  balancer?: {
    requests: { pending: number; inFlight: number };
    workers: { healthy: number; initializing: number; unhealthy: number };
    failed: Record<BalancerCause, number>;
  };
}

/** A `/health` answer as the runner reads it: unchecked, any field may be missing (read as 0). */
export interface HealthBodyRead {
  jobs?: { [K in keyof HealthBody['jobs']]?: unknown };
  workers?: Record<string, unknown>;
}
