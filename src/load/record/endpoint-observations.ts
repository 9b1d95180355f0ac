/**
 * What a run against an endpoint at a URL sees of the endpoint itself, kept raw for `loadlab
 * calibrate` (RunResult.observed): the execution times it read, every worker its jobs ran on
 * (from the `workerId` of terminal status bodies), and the `/health` answers where they changed.
 * Bounded: a day-long run keeps at most a few MB of it.
 */
import type { RandomStream } from '../../lib/random.js';
import type { ObservedEndpoint } from '../../report/run-result.js';
import { WORKER_STATES } from './endpoint-series.js';
import type { HealthBodyRead } from '../../contract/health-body.js';
import { num } from './fold-windows.js';
import type { StreamObservations } from './stream-observations.js';
import type { BalancerObservations } from './balancer-observations.js';
import { MAX_SAMPLES, MAX_WORKERS } from './observation-limits.js';
import { Reservoir } from './reservoir.js';
import { round3 as round } from '../../lib/time-averages.js';

/** `/health` rows kept; later answers are counted, not kept. */
export const MAX_HEALTH_ROWS = 100_000;

export const HEALTH_COLUMNS = ['atMs', 'inQueue', 'inProgress', ...WORKER_STATES] as const;
export const WORKER_COLUMNS = ['firstStartMs', 'firstDelayMs', 'lastEndMs', 'jobs'] as const;

interface WorkerSeen {
  firstStartMs: number;
  firstDelayMs: number;
  lastEndMs: number;
  jobs: number;
}

export class EndpointObservations {
  /** Execution times read (a uniform sample of MAX_SAMPLES of them when more were read). */
  private readonly execution: Reservoir<number>;
  private readonly workers = new Map<string, WorkerSeen>();
  private workersDropped = 0;
  private readonly rows: number[][] = [];
  private healthDropped = 0;
  /** The last answer read, and whether it is the last row kept. */
  private last: number[] | undefined;
  private lastKept = false;

  /**
   * `rng`: draws which execution times stay once more than MAX_SAMPLES were read;
   * `streams`: the streamed chat answers (stream-observations.ts), when the run keeps them;
   * `balancer`: a load-balancing endpoint's served requests (balancer-observations.ts), whose
   * worker table then replaces the one of status bodies (it has none).
   */
  constructor(
    rng: RandomStream,
    readonly streams?: StreamObservations,
    readonly balancer?: BalancerObservations,
  ) {
    this.execution = new Reservoir(MAX_SAMPLES, rng);
  }

  /**
   * A terminal status body of a job whose submission left at `submittedMs` (run clock): the job
   * started at `submittedMs + delayTime` and ended `executionTime` later, on `workerId`.
   */
  job(submittedMs: number, status: string, delayMs: number | undefined, executionMs: number | undefined, workerId: unknown): void {
    const exec = finite(executionMs);
    if (status === 'COMPLETED' && exec !== undefined) this.execution.add(exec);
    const delay = finite(delayMs);
    if (typeof workerId !== 'string' || workerId === '' || delay === undefined) return;
    const startMs = submittedMs + delay;
    const endMs = startMs + (exec ?? 0);
    const w = this.workers.get(workerId);
    if (w === undefined) {
      if (this.workers.size >= MAX_WORKERS) return void this.workersDropped++;
      this.workers.set(workerId, { firstStartMs: startMs, firstDelayMs: delay, lastEndMs: endMs, jobs: 1 });
      return;
    }
    w.jobs++;
    if (startMs < w.firstStartMs) {
      w.firstStartMs = startMs;
      w.firstDelayMs = delay;
    }
    if (endMs > w.lastEndMs) w.lastEndMs = endMs;
  }

  /** A `/health` answer read at `atMs`; one without a numeric `jobs.inQueue` is not kept. */
  health(atMs: number, b: HealthBodyRead): void {
    const q = b.jobs?.inQueue;
    if (typeof q !== 'number') return;
    const row = [round(atMs), q, num(b.jobs?.inProgress), ...WORKER_STATES.map((s) => num(b.workers?.[s]))];
    const prev = this.last;
    this.last = row;
    if (prev !== undefined && sameCounts(prev, row)) return void (this.lastKept = false);
    // With each change the answer before it is kept: two consecutive rows bound when it happened.
    if (prev !== undefined && !this.lastKept) this.keepRow(prev);
    this.lastKept = this.keepRow(row);
  }

  result(): ObservedEndpoint {
    if (this.last !== undefined && !this.lastKept) this.lastKept = this.keepRow(this.last);
    const workers = [...this.workers.values()]
      .sort((a, b) => a.firstStartMs - b.firstStartMs)
      .map((w) => [round(w.firstStartMs), round(w.firstDelayMs), round(w.lastEndMs), w.jobs]);
    const streams = this.streams?.result();
    const lb = this.balancer?.result();
    return {
      executionMs: { count: this.execution.count, samples: this.execution.items() },
      workers: lb?.workers ?? { columns: [...WORKER_COLUMNS], rows: workers, ...(this.workersDropped ? { dropped: this.workersDropped } : {}) },
      health: { columns: [...HEALTH_COLUMNS], rows: this.rows.slice(), ...(this.healthDropped ? { dropped: this.healthDropped } : {}) },
      ...(streams ? { streams } : {}),
      ...(lb ? { balancer: lb.balancer } : {}),
    };
  }

  private keepRow(row: number[]): boolean {
    if (this.rows.length >= MAX_HEALTH_ROWS) {
      this.healthDropped++;
      return false;
    }
    this.rows.push(row);
    return true;
  }
}

function sameCounts(a: number[], b: number[]): boolean {
  for (let i = 1; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function finite(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : undefined;
}
