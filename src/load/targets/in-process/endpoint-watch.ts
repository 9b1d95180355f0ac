/**
 * The endpoint's state over the run, integrated exactly on the virtual clock: the queue length,
 * the jobs in the system (queued or in progress) and the workers by state change only inside
 * simulator events, so the state read after an event holds until the next event's time. The
 * target's drive loop calls `observe` after every event (a few counter reads; no domain events).
 */
import type { Endpoint } from '../../../sim/endpoint.js';
import { TimeAverages } from '../../../lib/time-averages.js';
import type { EndpointWindows } from '../../../report/run-result.js';
import { ENDPOINT_SERIES, endpointWindows } from '../../record/endpoint-series.js';
import type { EndpointWatcher } from '../target.js';

export class EndpointWatch implements EndpointWatcher {
  private readonly avg: TimeAverages;
  private t: number;

  constructor(private readonly ep: Endpoint, windowMs: number, nowMs: number) {
    this.avg = new TimeAverages(windowMs, ENDPOINT_SERIES, nowMs);
    this.t = nowMs;
    this.read();
  }

  /** After an event at `nowMs`: what held since the previous time counts until now; the state from now on is read. */
  observe(nowMs: number): void {
    if (nowMs !== this.t) {
      this.avg.advance(nowMs);
      this.t = nowMs;
    }
    this.read();
  }

  private read(): void {
    const v = this.avg.value;
    const c = this.ep.pool.counts;
    const q = this.ep.queue.length;
    // ENDPOINT_SERIES order: queueLength, jobsInSystem, running, idle, initializing, throttled, unhealthy.
    v[0] = q;
    v[1] = q + c.running;
    v[2] = c.running;
    v[3] = c.idle;
    v[4] = c.initializing;
    v[5] = c.throttled;
    v[6] = c.unhealthy;
  }

  windows(endMs: number, n: number): EndpointWindows {
    return endpointWindows('simulator', this.avg.averages(endMs, n));
  }
}
