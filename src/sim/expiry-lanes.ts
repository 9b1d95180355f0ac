/**
 * Result retention without a timer per job. Jobs that share a retention (30 min for /run, 60 s
 * for /runsync, or a `/status?ttl=` value) expire in the order they were added, so each retention
 * value is a FIFO lane of jobs with one timer for its head. The job's `expiresAtMs` is the truth
 * and the lane keeps no deadlines of its own (8 B less per retained job): an entry whose job was
 * removed meanwhile (GONE) or given a shorter retention elsewhere (`/status?ttl=`: an earlier
 * time) is harmless at the head; the only way to a later time, a retry, takes the job out of
 * its lanes (`forget`).
 */
import { Deque } from './deque.js';
import { GONE, type Job } from './job.js';
import type { Scheduler, Timer } from './scheduler.js';

interface Lane {
  jobs: Deque<Job>;
  /** Reused for every head; `armed` says whether it is in the queue. */
  timer: Timer | undefined;
  armed: boolean;
}

export class ExpiryLanes {
  private readonly lanes = new Map<number, Lane>();

  constructor(
    private readonly sched: Scheduler,
    private readonly expire: (j: Job) => void,
  ) {}

  /** Expires `j` `retentionMs` from now (the caller sets `j.expiresAtMs` to the same instant). */
  add(j: Job, retentionMs: number): void {
    let lane = this.lanes.get(retentionMs);
    if (!lane) {
      lane = { jobs: new Deque(), timer: undefined, armed: false };
      this.lanes.set(retentionMs, lane);
    }
    lane.jobs.push(j);
    if (!lane.armed) this.arm(lane);
  }

  /** Takes `j` out of every lane (a retried job: it ends again later, with a later deadline). O(n), rare. */
  forget(j: Job): void {
    for (const lane of this.lanes.values()) {
      if (lane.jobs.removeAll(j) > 0 && lane.armed) this.arm(lane);
    }
  }

  private arm(lane: Lane): void {
    const head = lane.jobs.peek();
    lane.armed = head !== undefined;
    if (head === undefined) return;
    // A GONE head (-1) is clamped to now: the next fire drops it.
    const at = head.expiresAtMs;
    lane.timer = lane.timer ? this.sched.again(lane.timer, at) : this.sched.at(at, this.fire, lane);
  }

  private readonly fire = (lane: Lane): void => {
    const now = this.sched.nowMs;
    for (let j = lane.jobs.peek(); j !== undefined && j.expiresAtMs <= now; j = lane.jobs.peek()) {
      lane.jobs.shift();
      if (j.expiresAtMs !== GONE) this.expire(j);
    }
    this.arm(lane);
  };
}
