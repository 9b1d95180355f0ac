/**
 * Counts serve's answered requests for `/metrics`: requests by route and status, the duration of
 * held ones (answered at a later virtual time), and request body bytes. Per-request counts are
 * summed here and handed to prom-client at scrape time.
 */
import { BatchedCounter } from '../telemetry/batched-counter.js';
import type { Metrics } from '../telemetry/registry.js';
import type { Simulator } from '../sim/simulator.js';

const requestLabels = (route: string, status: number) => ({ route, status: String(status) });

export interface RequestRecord {
  route: string;
  method: string;
  status: number;
  /** Virtual ms of arrival and answer. */
  startMs: number;
  endMs: number;
}

export class RequestMeter {
  private readonly requests: BatchedCounter<'route' | 'status'>;
  private bodyBytes = 0;

  constructor(
    private readonly metrics: Metrics,
    private readonly sim: Simulator,
    /** Called for every answered request (tracing). */
    private readonly onAnswered?: (r: RequestRecord) => void,
  ) {
    this.requests = new BatchedCounter(metrics.httpRequests);
    metrics.beforeScrape.push(() => {
      this.requests.flush();
      if (this.bodyBytes > 0) metrics.httpRequestBodyBytes.inc(this.bodyBytes);
      this.bodyBytes = 0;
    });
  }

  /** A request body read whole. */
  body(bytes: number): void {
    this.bodyBytes += bytes;
  }

  /** A request answered now with `status`, having arrived at virtual `startMs`. */
  answered(route: string, method: string, status: number, startMs: number): void {
    this.requests.inc(route, status, requestLabels);
    const endMs = this.sim.nowMs;
    // Only requests that were held (answered at a later virtual time) go into the histogram.
    if (endMs > startMs) this.metrics.httpRequestDuration.observe({ route }, (endMs - startMs) / 1000);
    this.onAnswered?.({ route, method, status, startMs, endMs });
  }
}
