/**
 * The runner's own `GET /health` reads during a run against a URL (`loadlab run --target
 * --health-every`): the endpoint's queue and workers over time, for a target that cannot show
 * them otherwise (a `serve` instance or a real deployment). Not a flow: nothing of it counts in
 * the scenario's operations, flows, arrivals or thresholds; `result()` is the run's
 * `healthSampling`. Each answer goes to `Recorder.healthSeen`, as a `health` flow's do.
 *
 * One read at time 0, then one every `everyMs` on a fixed grid, as long as the run goes on (its
 * drain included: until every session has ended). One request at a time: a read still out when
 * the next is due makes that one miss. A read gets `timeoutMs(everyMs)` to answer.
 *
 * A read that gives no sample is counted by its cause (`failureCause`). Only a 401, 403 or 404
 * stops sampling (the key, the endpoint id or the URL is wrong: reading on cannot help); the stop
 * is said once (`onStop`) and kept in `stopped`. Any other failure (another status, no answer in
 * time, a connection reset or refused, a 200 that is not a health body) is transient: the next
 * read is the next one on the grid, not sooner, so the samples stay evenly spaced and an endpoint
 * in trouble gets no more requests than usual. After STREAK_WARN failures in a row, sampling goes
 * on at the same pace and `onStreak` says so once per run. Memory: one counter per cause seen.
 */
import type { HealthSampling } from '../report/run-result.js';
import type { HealthBodyRead } from '../contract/health-body.js';
import { isRefusal } from './record/reachability.js';
import type { Recorder } from './record/recorder.js';
import type { Target, TargetRequest, TargetResponse } from './targets/target.js';

/** Failed reads in a row after which one warning says sampling goes on. */
export const STREAK_WARN = 10;

/** The client timeout of one read: the period, from 1 s to 5 s. */
export function timeoutMs(everyMs: number): number {
  return Math.min(5000, Math.max(1000, everyMs));
}

/**
 * Why a read gave no sample, as report.json's `healthSampling.failed` counts it: the status of
 * an answer other than 200 (`'502'`, `'429'`, …), `body` for a 200 without a numeric
 * `jobs.inQueue`, `timeout`, `reset`, `refused` or `connection` when no answer came; undefined:
 * a sample.
 */
export function failureCause(r: TargetResponse): string | undefined {
  if (r.status !== 0) {
    if (r.status !== 200) return String(r.status);
    return inQueueOf(r) === undefined ? 'body' : undefined;
  }
  if (r.timedOut) return 'timeout';
  const e = r.error ?? '';
  if (/ECONNREFUSED/.test(e)) return 'refused';
  if (/ECONNRESET|EPIPE|other side closed|socket hang up/i.test(e)) return 'reset';
  if (/timeout|ETIMEDOUT/i.test(e)) return 'timeout';
  return 'connection';
}

function inQueueOf(r: TargetResponse): number | undefined {
  const q = (typeof r.body === 'object' && r.body !== null ? (r.body as HealthBodyRead) : undefined)?.jobs?.inQueue;
  return typeof q === 'number' && Number.isFinite(q) ? q : undefined;
}

export class HealthSampler {
  private readonly counts: HealthSampling;
  private readonly failed = new Map<string, number>();
  private readonly req: TargetRequest;
  private inFlight = false;
  /** Failed reads in a row; whether the warning about them was said. */
  private streak = 0;
  private warned = false;
  private done = false;
  /** The next read's number (read k is due at k × everyMs), and the target's handle of its timer. */
  private k = 0;
  private timer: unknown = undefined;

  constructor(
    private readonly target: Target,
    private readonly rec: Recorder,
    readonly everyMs: number,
    /** Called once, when a 401, 403 or 404 stops sampling: the reason, and that status. */
    private readonly onStop: (reason: string, status: number) => void,
    /** Each sample's queue depth (429 cause inference against a real deployment). */
    private readonly onQueue: (depth: number) => void = () => {},
    /** Called once per run, after STREAK_WARN failed reads in a row (sampling goes on). */
    private readonly onStreak: (message: string) => void = () => {},
  ) {
    this.counts = { everyMs, requests: 0, answered: 0, errors: 0 };
    // One request object for every read: the target keeps its wire form.
    this.req = { op: 'health', method: 'GET', path: '/health', timeoutMs: timeoutMs(everyMs) };
  }

  /** The first read at time 0, then every `everyMs`. */
  start(): void {
    this.timer = this.target.at(0, this.tick);
  }

  /** No more reads; an answer still on its way is ignored. */
  end(): void {
    this.done = true;
  }

  result(): HealthSampling {
    // Statuses first (ascending: integer keys), then the named causes in a fixed order.
    const named = [...this.failed.keys()].filter((c) => !/^\d+$/.test(c)).sort();
    const failed: Record<string, number> = {};
    for (const [c, n] of this.failed) if (/^\d+$/.test(c)) failed[c] = n;
    for (const c of named) failed[c] = this.failed.get(c)!;
    return { ...this.counts, failed };
  }

  /** Read k is due: read, and arm read k + 1. */
  private readonly tick = (): void => {
    if (this.done) return;
    this.read();
    this.timer = this.target.at(++this.k * this.everyMs, this.tick, this.timer);
  };

  private read(): void {
    if (this.inFlight) return;
    this.inFlight = true;
    this.counts.requests++;
    this.target.send(this.req, this.answered);
  }

  private readonly answered = (r: TargetResponse): void => {
    this.inFlight = false;
    if (this.done) return;
    const cause = failureCause(r);
    if (cause !== undefined) return this.fail(r, cause);
    const q = inQueueOf(r)!;
    this.streak = 0;
    this.counts.answered++;
    this.onQueue(q);
    this.rec.healthSeen(this.target.now(), r.body as HealthBodyRead);
  };

  private fail(r: TargetResponse, cause: string): void {
    this.counts.errors++;
    this.failed.set(cause, (this.failed.get(cause) ?? 0) + 1);
    if (isRefusal(r.status)) {
      this.done = true;
      this.counts.stopped = `/health answered ${r.status}`;
      this.onStop(this.counts.stopped, r.status);
      return;
    }
    if (++this.streak >= STREAK_WARN && !this.warned) {
      this.warned = true;
      this.onStreak(
        `/health: no sample from ${this.streak} reads in a row (the last: ${this.said(r, cause)}); reading on every ${this.everyMs} ms until the run ends`,
      );
    }
  }

  private said(r: TargetResponse, cause: string): string {
    switch (cause) {
      case 'body':
        return 'answered 200 without a numeric jobs.inQueue';
      case 'timeout':
        return r.timedOut ? `no answer within ${this.req.timeoutMs} ms` : `timed out (${r.error})`;
      case 'reset':
      case 'refused':
      case 'connection':
        return `connection ${cause === 'connection' ? 'error' : cause}${r.error ? ` (${r.error})` : ''}`;
      default:
        return `answered ${r.status}`;
    }
  }
}
