/**
 * The runner's own `GET /health` reads during a run against a URL (`loadlab run --target
 * --health-every`): the endpoint's queue and workers over time, for a target that cannot show
 * them otherwise (a `serve` instance or a real deployment). Not a flow: nothing of it counts in
 * the scenario's operations, flows, arrivals or thresholds; `result()` is the run's
 * `healthSampling`. Each answer goes to `Recorder.healthSeen`, as a `health` flow's do.
 *
 * One read at time 0, then one every `everyMs` on a fixed grid, as long as the run goes on (its
 * drain included: until every session has ended). One request at a time: a read still out when
 * the next is due makes that one miss. A read gets `timeoutMs(everyMs)` to answer. No answer (a
 * timeout, a connection error) or a 429 misses the sample; MAX_MISSES in a row stop sampling.
 * Any other answer but 200, or a 200 without a numeric `jobs.inQueue`, stops it at once. A stop
 * is said once (`onStop`) and kept in `stopped`; the run goes on.
 */
import type { HealthSampling } from '../report/run-result.js';
import type { HealthBodyRead } from '../contract/health-body.js';
import type { Recorder } from './record/recorder.js';
import type { Target, TargetRequest, TargetResponse } from './targets/target.js';

/** Misses in a row (no answer, or 429) that stop sampling. */
export const MAX_MISSES = 3;

/** The client timeout of one read: the period, from 1 s to 5 s. */
export function timeoutMs(everyMs: number): number {
  return Math.min(5000, Math.max(1000, everyMs));
}

export class HealthSampler {
  private readonly counts: HealthSampling;
  private readonly req: TargetRequest;
  private inFlight = false;
  private misses = 0;
  private done = false;
  /** The next read's number (read k is due at k × everyMs), and the target's handle of its timer. */
  private k = 0;
  private timer: unknown = undefined;

  constructor(
    private readonly target: Target,
    private readonly rec: Recorder,
    readonly everyMs: number,
    /** Called once, when sampling stops early: the reason, and the status of the answer that stopped it (0: none). */
    private readonly onStop: (reason: string, status: number) => void,
    /** Each sample's queue depth (429 cause inference against a real deployment). */
    private readonly onQueue: (depth: number) => void = () => {},
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
    return { ...this.counts };
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
    if (r.status === 0 || r.status === 429) {
      this.counts.errors++;
      if (++this.misses >= MAX_MISSES)
        this.stop(
          r.status,
          `no sample from ${MAX_MISSES} /health requests in a row (${r.status === 429 ? 'answered 429' : r.timedOut ? `no answer within ${this.req.timeoutMs} ms` : 'connection error'})`,
        );
      return;
    }
    if (r.status !== 200) return this.stopOn(r.status, `/health answered ${r.status}`);
    const b = (typeof r.body === 'object' && r.body !== null ? r.body : {}) as HealthBodyRead;
    const q = b.jobs?.inQueue;
    if (typeof q !== 'number' || !Number.isFinite(q)) return this.stopOn(200, '/health answered 200 without a numeric jobs.inQueue');
    this.misses = 0;
    this.counts.answered++;
    this.onQueue(q);
    this.rec.healthSeen(this.target.now(), b);
  };

  private stopOn(status: number, reason: string): void {
    this.counts.errors++;
    this.stop(status, reason);
  }

  private stop(status: number, reason: string): void {
    this.done = true;
    this.counts.stopped = reason;
    this.onStop(reason, status);
  }
}
