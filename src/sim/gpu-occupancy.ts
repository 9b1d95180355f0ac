/**
 * An endpoint's workers on each GPU type over time (an endpoint that lists its `gpus`), beside its
 * occupancy (occupancy.ts) and observed at the same moments: the placed workers of each type by
 * state (worker-pool.ts `countsByGpu`), integrated exactly per window. Endpoints without gpus
 * have none of it.
 */
import { WORKER_STATES, type WorkerState } from '../contract/sim-events.js';
import { TimeAverages } from '../lib/time-averages.js';
import type { Endpoint } from './endpoint.js';

/** One GPU type's workers for windows 0 to n - 1: per state (WORKER_STATES order), value × ms per window. */
export interface GpuAreas {
  gpu: string;
  areas: number[][];
}

export class GpuOccupancy {
  private readonly avg: TimeAverages;
  private readonly counts: readonly Readonly<Record<WorkerState, number>>[];

  constructor(
    ep: Endpoint,
    private readonly gpus: readonly string[],
    readonly windowMs: number,
    nowMs: number,
  ) {
    this.counts = ep.pool.countsByGpu!;
    this.avg = new TimeAverages(windowMs, gpus.length * WORKER_STATES.length, nowMs);
    this.read();
  }

  observe(nowMs: number): void {
    this.avg.advance(nowMs); // nothing when the clock has not moved
    this.read();
  }

  private read(): void {
    const v = this.avg.value;
    const counts = this.counts;
    // After every simulator event: a plain loop, no closure; WORKER_STATES order.
    for (let t = 0, i = 0; t < counts.length; t++) {
      const c = counts[t]!;
      v[i++] = c.running;
      v[i++] = c.idle;
      v[i++] = c.initializing;
      v[i++] = c.throttled;
      v[i++] = c.unhealthy;
    }
  }

  /** Per GPU type, in the endpoint's order: windows 0 to `n - 1`, the run having ended at `endMs`. */
  areas(endMs: number, n: number): GpuAreas[] {
    const all = this.avg.areas(endMs, n);
    const S = WORKER_STATES.length;
    return this.gpus.map((gpu, t) => ({ gpu, areas: all.slice(t * S, (t + 1) * S) }));
  }
}
