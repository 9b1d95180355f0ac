/**
 * Result retention without a timer per job. Jobs that share a retention (30 min for /run, 60 s
 * for /runsync, or a `/status?ttl=` value) expire in the order they were added, so each retention
 * value is a FIFO lane of (sequence number, deadline) with one timer for its head. The job's
 * current expiry (`JobTable.expiresAt`) is the truth: an entry whose deadline no longer matches
 * it is stale and skipped — the job was removed meanwhile, given a shorter retention in another
 * lane (`/status?ttl=`), or retried (it ends again later and gets a new entry).
 */
import { DeadlineRing } from './deadline-ring.js';
import type { Scheduler, Timer } from '../lib/scheduler.js';

interface Lane {
  entries: DeadlineRing;
  /** Reused for every head; `armed` says whether it is in the queue. */
  timer: Timer | undefined;
  armed: boolean;
}

export class ExpiryLanes {
  private readonly lanes = new Map<number, Lane>();
  /** The lane of the latest `add`, and its retention. */
  private last: Lane | undefined = undefined;
  private lastMs = -1;

  constructor(
    private readonly sched: Scheduler,
    private readonly expire: (seq: number) => void,
    /** The job's expiry now (GONE once removed). */
    private readonly expiresAt: (seq: number) => number,
    /**
     * How late a lane may fire after its head's deadline (0: exactly then). Lanes of results
     * nobody sees expire (job-table.ts hides a lapsed compacted result) fire once per this span
     * and remove every entry due, instead of one event per job.
     */
    private readonly slackMs = 0,
  ) {}

  /** Expires job `seq` at `atMs` = now + `retentionMs` (its expiry in the table is the same instant). */
  add(seq: number, atMs: number, retentionMs: number): void {
    // Nearly every job of an endpoint goes to the same lane as the one before.
    let lane = retentionMs === this.lastMs ? this.last : this.lanes.get(retentionMs);
    if (!lane) {
      lane = { entries: new DeadlineRing(), timer: undefined, armed: false };
      this.lanes.set(retentionMs, lane);
    }
    this.lastMs = retentionMs;
    this.last = lane;
    lane.entries.push(seq, atMs);
    if (!lane.armed) this.arm(lane);
  }

  private arm(lane: Lane): void {
    lane.armed = lane.entries.length > 0;
    if (!lane.armed) return;
    const at = lane.entries.headAt() + this.slackMs;
    lane.timer = lane.timer ? this.sched.again(lane.timer, at) : this.sched.at(at, this.fire, lane);
  }

  /** Removes every entry due now, in every lane (before counting what is retained). */
  flush(): void {
    for (const lane of this.lanes.values()) if (lane.armed) this.fire(lane);
  }

  private readonly fire = (lane: Lane): void => {
    const now = this.sched.nowMs;
    const e = lane.entries;
    while (e.length > 0 && e.headAt() <= now) {
      const seq = e.headSeq();
      const at = e.headAt();
      e.shift();
      if (this.expiresAt(seq) === at) this.expire(seq);
    }
    this.arm(lane);
  };
}
