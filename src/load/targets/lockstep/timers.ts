/**
 * A lockstep client's timers (arrivals, polls, back-offs, cancels, client timeouts), each
 * mirrored by a no-op marker in the server's event queue. A timer is put on the local queue when
 * its marker is sent, so local order (ms, then insertion) is the server's order of the markers,
 * and the server's order among its own events at one ms is the in-process order. The server
 * reports how many markers fired; that many local timers are due, the earliest first.
 */
import { Scheduler } from '../../../lib/scheduler.js';

export interface TimerSpec {
  atMs: number;
  fn: () => void;
}

export class MirroredTimers {
  private readonly local = new Scheduler();
  /** Markers fired at the server whose timer has not run here yet. */
  private due = 0;
  private seen = 0;

  /** The server's marker count when the run starts (markers of earlier runs are not ours). */
  start(markers: number): void {
    this.seen = markers;
  }

  /**
   * Places timers whose markers are about to be sent, in this order; returns their times
   * (whole ms, not before `nowMs`: the past cannot be scheduled, here or at the server).
   */
  place(batch: readonly TimerSpec[], nowMs: number): number[] {
    return batch.map(({ atMs, fn }) => {
      const t = Math.max(Math.floor(atMs), nowMs);
      this.local.at(t, fn);
      return t;
    });
  }

  /** The server's count of markers fired (absolute). */
  fired(markers: number): void {
    this.due += markers - this.seen;
    this.seen = markers;
  }

  /** Runs the next timer whose marker fired; false when none is due. */
  runDue(): boolean {
    if (this.due === 0) return false;
    this.due--;
    this.local.step();
    return true;
  }

  /** Time of the next timer (fired or not), or undefined. */
  peekMs(): number | undefined {
    return this.local.peekMs();
  }
}
