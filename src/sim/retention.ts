/**
 * How long a job stays (docs/api.md): `policy.ttl` counted from submission (a hard
 * delete, even while it runs) and result retention counted from its end (30 min for `/run`, 60 s
 * for `/runsync`, shortened by `/status?ttl=`). Whichever comes first removes it. The default
 * ttl is swept (ttl-sweep.ts), another ttl gets a timer of its own, retention runs in FIFO lanes
 * (expiry-lanes.ts).
 */
import type { EndpointConfig } from '../contract/endpoint-config.js';
import { ExpiryLanes } from './expiry-lanes.js';
import { DEFAULT_TTL_MS, extras, isGone, isTerminal, type Job } from './job.js';
import type { JobTable } from './job-table.js';
import type { Scheduler } from '../lib/scheduler.js';
import { TtlSweep } from './ttl-sweep.js';

export type ExpiryReason = 'retention' | 'ttl';

/** How late the removal of a result nobody can see any more may come (`unseen` lanes). */
const UNSEEN_SLACK_MS = 1000;

export class Retention {
  private readonly lanes: ExpiryLanes;
  /**
   * Lanes of compacted results whose removal nobody watches (no domain-event listener): a lapsed
   * compacted result is hidden by the job table at its deadline, so the lane may come up to
   * UNSEEN_SLACK_MS later and remove all that is due in one event (not one event per job).
   */
  private readonly unseen: ExpiryLanes;
  private readonly sweep: TtlSweep;

  constructor(
    private readonly sched: Scheduler,
    private readonly jobs: JobTable,
    private readonly cfg: EndpointConfig['retention'],
    /** Removes a job object (hard delete). */
    private readonly expire: (j: Job, reason: ExpiryReason) => void,
    /** Removes a compacted result (job-table.ts). */
    private readonly expireCompacted: (seq: number) => void,
  ) {
    const expiresAt = (seq: number): number => jobs.expiresAt(seq);
    this.lanes = new ExpiryLanes(sched, this.onLane, expiresAt);
    this.unseen = new ExpiryLanes(sched, this.onLane, expiresAt, UNSEEN_SLACK_MS);
    this.sweep = new TtlSweep(sched, jobs, DEFAULT_TTL_MS, this.onTtl);
  }

  /** Arms the ttl deadline (`j.expiresAtMs`) of a job that entered the queue: submission or retry. */
  watchTtl(j: Job): void {
    if (this.sweep.covers(j)) this.sweep.watch();
    else if (!j.x?.ttlTimer || j.x.ttlTimer.idx < 0) extras(j).ttlTimer = this.sched.at(j.expiresAtMs, this.onTtl, j);
  }

  /**
   * The job has just ended: its retention starts. Returns true when retention removes it, false
   * when its ttl deadline comes first and stays in force. When true, the caller puts it in a
   * lane (`expireAt`) once it knows whether the job stays an object.
   */
  ended(j: Job): boolean {
    const now = this.sched.nowMs;
    const base = j.kind === 'runsync' ? this.cfg.runsyncMs : this.cfg.runMs;
    // `/status?ttl=` given before the end only ever shortens retention, as after it.
    const override = j.x?.retentionOverrideMs;
    const ms = override !== undefined && override < base ? override : base;
    if (now + ms >= j.expiresAtMs) return false;
    if (j.x) {
      this.sched.cancel(j.x.ttlTimer);
      j.x.ttlTimer = undefined;
    }
    j.expiresAtMs = now + ms;
    return true;
  }

  /**
   * Removes the ended job at its deadline (`ended` returned true). `unseen`: it is about to be
   * compacted and nobody listens for its removal, so a late lane will do (see `unseen`).
   */
  expireAt(j: Job, unseen: boolean): void {
    if (isGone(j)) return;
    (unseen ? this.unseen : this.lanes).add(j.seq, j.expiresAtMs, j.expiresAtMs - this.sched.nowMs);
  }

  /**
   * A compacted job became an object again (`JobTable.own`): an object is removed exactly at its
   * deadline, which a late lane may not do, so it gets a timer of its own.
   */
  ownedAgain(j: Job): void {
    if (isGone(j)) return;
    extras(j).ttlTimer = this.sched.at(j.expiresAtMs, this.onRetention, j);
  }

  /** Removes every compacted result that is due (before the table's size is read). */
  flush(): void {
    this.unseen.flush();
  }

  /** `/status?ttl=`: the result is dropped `ms` from now (ended) or from its end; never later than before. */
  shorten(j: Job, ms: number): void {
    if (!isTerminal(j.status)) {
      const x = extras(j);
      x.retentionOverrideMs = Math.min(ms, x.retentionOverrideMs ?? ms);
      return;
    }
    const at = this.sched.nowMs + ms;
    if (at >= j.expiresAtMs) return;
    this.sched.cancel(j.x?.ttlTimer);
    // ttl=0: gone now, not at the next scheduler step (a manual clock may not step for a while).
    if (ms === 0) return this.expire(j, 'retention');
    j.expiresAtMs = at;
    this.lanes.add(j.seq, at, ms);
  }

  private readonly onTtl = (j: Job): void => this.expire(j, 'ttl');
  private readonly onRetention = (j: Job): void => this.expire(j, 'retention');

  /** A lane's deadline came for job `seq`: an object, or a compacted result. */
  private readonly onLane = (seq: number): void => {
    const j = this.jobs.objectAt(seq);
    if (j) this.expire(j, 'retention');
    else this.expireCompacted(seq);
  };
}
