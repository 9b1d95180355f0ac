/**
 * `policy.ttl` deadlines (counted from submission, a hard delete) of the jobs that use the default
 * ttl, without a timer per job. The job table is in submission order, so with one ttl value the
 * deadlines are in table order too: one timer for the oldest job's deadline; when it fires, jobs
 * are checked from the oldest until a deadline lies in the future. Almost every job is gone
 * (retention) long before its ttl, so a fire usually finds nothing and re-arms. Jobs with another
 * ttl get their own timer (endpoint.ts).
 */
import { ttlOf, type Job } from './job.js';
import type { JobTable } from './job-table.js';
import type { Scheduler, Timer } from './scheduler.js';

export class TtlSweep {
  private timer: Timer | undefined;

  constructor(
    private readonly sched: Scheduler,
    private readonly table: JobTable,
    readonly ttlMs: number,
    private readonly expire: (j: Job) => void,
  ) {}

  /** A job with this ttl entered (or re-entered) the table. */
  watch(): void {
    if (!this.timer) this.arm();
  }

  private arm(): void {
    for (const j of this.table.raw()) {
      if (ttlOf(j) !== this.ttlMs) continue;
      this.timer = this.sched.at(j.submittedAtMs + this.ttlMs, this.fire);
      return;
    }
  }

  private readonly fire = (): void => {
    this.timer = undefined;
    const now = this.sched.nowMs;
    const due: Job[] = [];
    for (const j of this.table.raw()) {
      if (ttlOf(j) !== this.ttlMs) continue;
      const deadline = j.submittedAtMs + this.ttlMs;
      if (deadline > now) break;
      // A job whose retention ends earlier is the expiry lanes' business.
      if (j.expiresAtMs === deadline) due.push(j);
    }
    for (const j of due) this.expire(j);
    this.arm();
  };
}
