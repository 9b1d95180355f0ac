/**
 * An endpoint's occupancy over time — queue length, jobs in the system (queued or in progress)
 * and workers by state — integrated exactly on the virtual clock. That state changes only inside
 * simulator events and API requests, never while time passes, so the owner of the clock calls
 * `observe` after each event (in process) or before it (a server, whose requests arrive between
 * events): what held since the previous call counts until now, and the state is read again.
 * A few counter reads per call; no domain events. An LLM endpoint's engines (`llm.engine`) are
 * followed at the same moments (`engine`, engine-occupancy.ts), and so are the workers on each GPU
 * type of an endpoint that lists its `gpus` (`gpus`, gpu-occupancy.ts); other endpoints pay nothing for either.
 */
import { TimeAverages } from '../lib/time-averages.js';
import type { Endpoint } from './endpoint.js';
import { EngineOccupancy } from './engine-occupancy.js';
import { GpuOccupancy } from './gpu-occupancy.js';

/** The series, in column order. */
export const OCCUPANCY_SERIES = ['queueLength', 'jobsInSystem', 'running', 'idle', 'initializing', 'throttled', 'unhealthy'] as const;

export class Occupancy {
  private readonly avg: TimeAverages;
  /** The batching engines over time: only on an endpoint with `llm.engine`. */
  readonly engine: EngineOccupancy | undefined;
  /** The workers on each GPU type: only on an endpoint that lists its gpus. */
  readonly gpus: GpuOccupancy | undefined;

  constructor(
    private readonly ep: Endpoint,
    readonly windowMs: number,
    nowMs: number,
  ) {
    this.avg = new TimeAverages(windowMs, OCCUPANCY_SERIES.length, nowMs);
    this.engine = ep.cfg.llm?.engine ? new EngineOccupancy(ep, windowMs, nowMs) : undefined;
    const gpus = ep.cfg.gpus;
    this.gpus = gpus?.length ? new GpuOccupancy(ep, gpus, windowMs, nowMs) : undefined;
    this.read();
  }

  observe(nowMs: number): void {
    this.avg.advance(nowMs); // nothing when the clock has not moved
    this.read();
    this.engine?.observe(nowMs);
    this.gpus?.observe(nowMs);
  }

  private read(): void {
    const v = this.avg.value;
    const c = this.ep.pool.counts;
    const q = this.ep.queue.length;
    v[0] = q;
    v[1] = q + this.ep.pool.jobsHeld;
    v[2] = c.running;
    v[3] = c.idle;
    v[4] = c.initializing;
    v[5] = c.throttled;
    v[6] = c.unhealthy;
  }

  /** Per series (OCCUPANCY_SERIES), windows 0 to `n - 1`: value × ms, up to `endMs`. */
  areas(endMs: number, n: number): number[][] {
    return this.avg.areas(endMs, n);
  }

  /** Per series, windows 0 to `n - 1`: time averages (time-averages.ts `averagesOf`). */
  averages(endMs: number, n: number): number[][] {
    return this.avg.averages(endMs, n);
  }
}
