/** One operation's accumulator in the Recorder (moved out of recorder.ts to keep it one concept). */
import type { LimitCauseName } from '../../report/run-result.js';
import { InFlightWindows } from './in-flight-windows.js';
import { MsHistogram } from './ms-histogram.js';
import { StatusWindows } from './status-windows.js';
import { WindowHistograms } from './window-histograms.js';

/** One operation's counters. Statuses are counted in an array by code (no Map update per answer). */
export class OpAcc {
  requests = 0;
  private readonly statusCounts = new Float64Array(STATUS_SLOTS);
  /** Statuses outside 0–999 (never from a well-behaved server). */
  private readonly otherStatus = new Map<number, number>();
  readonly limited: Record<LimitCauseName, number> = { rate: 0, concurrency: 0, queue: 0, unknown: 0 };
  retried429 = 0;
  clientTimeouts = 0;
  transportErrors = 0;
  readonly responseMs = new MsHistogram();
  readonly serviceMs = new MsHistogram();
  /** Response time per histogram window (of the answer). */
  readonly windows: WindowHistograms;
  /** Requests in flight: now, at peak, and the most per histogram window. */
  readonly inFlightWindows: InFlightWindows;
  /** Answers per histogram window (of the answer) and status. */
  readonly statusWindows: StatusWindows;
  /** Requests sent per histogram window (of the send). */
  readonly sentPerWindow: number[] = [];

  constructor(private readonly histWindowMs: number) {
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

  /** A request sent at `atMs`: counted in its window, and in flight. */
  sentAt(atMs: number): void {
    const i = Math.floor(atMs / this.histWindowMs);
    const a = this.sentPerWindow;
    while (a.length <= i) a.push(0);
    a[i]!++;
    this.inFlightWindows.up(atMs);
  }

  /** A request answered at `atMs` with `status` (0: none): no longer in flight, its status counted. */
  answeredAt(atMs: number, status: number): void {
    this.inFlightWindows.down(atMs);
    this.countStatus(status);
    this.statusWindows.add(atMs, status);
  }

  countStatus(status: number): void {
    if (status >= 0 && status < STATUS_SLOTS && Number.isInteger(status)) this.statusCounts[status]!++;
    else this.otherStatus.set(status, (this.otherStatus.get(status) ?? 0) + 1);
  }

  /** Answers with this status so far. */
  status(status: number): number {
    return status >= 0 && status < STATUS_SLOTS && Number.isInteger(status) ? this.statusCounts[status]! : (this.otherStatus.get(status) ?? 0);
  }

  /** Every status seen at least once, with its count. */
  get byStatus(): Map<number, number> {
    const m = new Map(this.otherStatus);
    this.statusCounts.forEach((n, s) => n > 0 && m.set(s, n));
    return m;
  }
}

const STATUS_SLOTS = 1000;
