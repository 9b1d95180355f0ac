/** One operation's accumulator in the Recorder (moved out of recorder.ts to keep it one concept). */
import type { LimitCauseName } from '../../report/run-result.js';
import { BALANCER_CAUSES, type BalancerCause } from '../../contract/sim-events.js';
import { InFlightWindows } from './in-flight-windows.js';
import { MsHistogram } from './ms-histogram.js';
import { StatusWindows } from './status-windows.js';
import { WindowHistograms } from './window-histograms.js';

/** One operation's counters. */
export class OpAcc {
  requests = 0;
  readonly limited: Record<LimitCauseName, number> = { rate: 0, concurrency: 0, queue: 0, unknown: 0 };
  retried429 = 0;
  /** A load-balancing endpoint's requests (operation `lb`): those its balancer ended, by cause (balancer-cause.ts); undefined for other operations. */
  readonly balancerFailed: Record<BalancerCause, number> | undefined;
  clientTimeouts = 0;
  transportErrors = 0;
  readonly responseMs = new MsHistogram();
  readonly serviceMs = new MsHistogram();
  /** Response time per histogram window (of the answer). */
  readonly windows: WindowHistograms;
  /** Requests sent per histogram window, and in flight: now, at peak, and the most per window. */
  readonly inFlightWindows: InFlightWindows;
  /** Answers by status, over the run and per histogram window (of the answer). */
  readonly statusWindows: StatusWindows;
  constructor(histWindowMs: number, balancer = false) {
    this.balancerFailed = balancer ? (Object.fromEntries(BALANCER_CAUSES.map((c) => [c, 0])) as Record<BalancerCause, number>) : undefined;
    this.windows = new WindowHistograms(histWindowMs);
    this.inFlightWindows = new InFlightWindows(histWindowMs);
    this.statusWindows = new StatusWindows(histWindowMs);
  }

  /** Requests of this operation in flight now. */
  get inFlight(): number {
    return this.inFlightWindows.level;
  }

  /** Most requests of this operation in flight at once so far. */
  get peakInFlight(): number {
    return this.inFlightWindows.peak;
  }

  /** Requests sent per histogram window (of the send). */
  get sentPerWindow(): readonly number[] {
    return this.inFlightWindows.sent;
  }

  /** A request sent at `atMs`: counted in its window, and in flight. */
  sentAt(atMs: number): void {
    this.inFlightWindows.up(atMs);
  }

  /** A request answered at `atMs` with `status` (0: none): no longer in flight, its status counted. */
  answeredAt(atMs: number, status: number): void {
    this.inFlightWindows.down(atMs);
    this.statusWindows.add(atMs, status);
  }

  /** Answers with this status so far. */
  status(status: number): number {
    return this.statusWindows.total(status);
  }

  /** Every status seen at least once, with its count. */
  get byStatus(): Map<number, number> {
    return this.statusWindows.totals();
  }
}
