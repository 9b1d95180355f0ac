/**
 * `policy.ttl` deadlines (counted from submission, a hard delete) of the jobs that use the default
 * ttl, without a timer per job. Sequence numbers follow submission, so with one ttl value the
 * deadlines are in sequence order too: a cursor walks the job table by sequence number and one
 * timer waits for the deadline of the job under it. Everything the cursor has passed is either
 * gone, due already, or not the sweep's business (compacted: its retention ends first; another
 * ttl: its own timer; an earlier retention: the expiry lanes). Each sequence number is passed once,
 * so the sweep costs O(1) per job however many results are retained.
 */
import { ttlOf, type Job } from './job.js';
import type { JobTable } from './job-table.js';
import type { Scheduler, Timer } from '../lib/scheduler.js';

export class TtlSweep {
  private timer: Timer | undefined;
  /** Every job with a lower sequence number needs no sweep. */
  private cursor = 0;

  constructor(
    private readonly sched: Scheduler,
    private readonly table: JobTable,
    readonly ttlMs: number,
    private readonly expire: (j: Job) => void,
  ) {}

  /** Can the sweep take `j` (default ttl, not behind the cursor)? Else it needs its own timer. */
  covers(j: Job): boolean {
    return ttlOf(j) === this.ttlMs && j.seq >= this.cursor;
  }

  /** A job it covers entered (or re-entered) the table. */
  watch(): void {
    if (!this.timer) this.advance();
  }

  /** Moves the cursor over what is done, expiring what is due, and waits for the next deadline. */
  private advance(): void {
    const now = this.sched.nowMs;
    const end = this.table.endSeq;
    for (; this.cursor < end; this.cursor++) {
      const j = this.table.objectAt(this.cursor);
      if (j === undefined || ttlOf(j) !== this.ttlMs) continue;
      const deadline = j.submittedAtMs + this.ttlMs;
      if (deadline > now) {
        this.timer = this.sched.at(deadline, this.fire);
        return;
      }
      // A job whose retention ends earlier is the expiry lanes' business.
      if (j.expiresAtMs === deadline) this.expire(j);
    }
  }

  private readonly fire = (): void => {
    this.timer = undefined;
    this.advance();
  };
}
