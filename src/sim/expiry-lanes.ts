/**
 * Result retention without a timer per job. Jobs that share a retention (30 min for /run, 60 s
 * for /runsync, or a `/status?ttl=` value) expire in the order they were added, so each retention
 * value is a FIFO lane with one timer for its head. An entry is a hint: the job's `expiresAtMs`
 * is the truth, so a job retried or expired meanwhile is skipped when its stale entry comes up.
 */
import { Deque } from './deque.js';
import type { Job } from './job.js';
import type { Scheduler, Timer } from './scheduler.js';

interface Lane {
  jobs: Deque<Job>;
  deadlines: Deque<number>;
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
      lane = { jobs: new Deque(), deadlines: new Deque(), timer: undefined, armed: false };
      this.lanes.set(retentionMs, lane);
    }
    lane.jobs.push(j);
    lane.deadlines.push(this.sched.nowMs + retentionMs);
    if (!lane.armed) this.arm(lane);
  }

  private arm(lane: Lane): void {
    const at = lane.deadlines.peek();
    lane.armed = at !== undefined;
    if (at === undefined) return;
    lane.timer = lane.timer ? this.sched.again(lane.timer, at) : this.sched.at(at, this.fire, lane);
  }

  private readonly fire = (lane: Lane): void => {
    const now = this.sched.nowMs;
    while (lane.deadlines.length > 0 && lane.deadlines.peek()! <= now) {
      const deadline = lane.deadlines.shift()!;
      const j = lane.jobs.shift()!;
      // A removed job's expiresAtMs is GONE (-1): never a deadline.
      if (j.expiresAtMs === deadline) this.expire(j);
    }
    this.arm(lane);
  };
}
