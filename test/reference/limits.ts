/**
 * Reference model of the request limits (spec §8, docs/api.md):
 * per operation, a concurrency cap on requests in flight and a rate over a window. Plain on
 * purpose: every accepted request's time is kept and counted again on each check.
 * - Concurrency is checked first, then the rate; a refused request takes neither.
 * - Only accepted requests use up the rate budget: a request refused later by queue throttling
 *   gives its token back (`refund`).
 */
export type RefOp = 'run' | 'runsync' | 'status' | 'status-sync' | 'cancel' | 'retry' | 'purge-queue' | 'health' | 'openai';

export const REF_OPS: readonly RefOp[] = ['run', 'runsync', 'status', 'status-sync', 'cancel', 'retry', 'purge-queue', 'health'];

/** The documented defaults (src/sim/config.ts DEFAULT_LIMITS, spec §8). `null`: unlimited. */
export const REF_DEFAULT_LIMITS: Record<RefOp, { rate: number | null; concurrency: number | null }> = {
  run: { rate: 1000, concurrency: 200 },
  runsync: { rate: 2000, concurrency: 400 },
  status: { rate: 2000, concurrency: 400 },
  'status-sync': { rate: 2000, concurrency: 400 },
  cancel: { rate: 100, concurrency: 20 },
  retry: { rate: 100, concurrency: 20 },
  'purge-queue': { rate: 2, concurrency: null },
  health: { rate: 1000, concurrency: null },
  openai: { rate: 2000, concurrency: 400 },
};

export interface RefLimitsConfig {
  window: 'sliding' | 'fixed';
  windowMs: number;
  /** Dynamic floor: rate = max(base, ready workers × this). */
  perWorkerRate: number | undefined;
  queueMin: number;
  queuePerWorker: number;
  /** Per operation; an absent key means the default. */
  operations: Partial<Record<RefOp, { rate?: number | null; concurrency?: number | null }>>;
}

export type RefCause = 'rate' | 'concurrency' | 'queue';

export class RefLimits {
  /** Times of the accepted requests of each operation, oldest first. */
  private readonly accepted = new Map<RefOp, number[]>();
  readonly inFlight = new Map<RefOp, number>();

  constructor(private readonly cfg: RefLimitsConfig) {
    for (const op of [...REF_OPS, 'openai' as const]) {
      this.accepted.set(op, []);
      this.inFlight.set(op, 0);
    }
  }

  limitOf(op: RefOp): { rate: number | null; concurrency: number | null } {
    const o = this.cfg.operations[op] ?? {};
    const d = REF_DEFAULT_LIMITS[op];
    return { rate: o.rate !== undefined ? o.rate : d.rate, concurrency: o.concurrency !== undefined ? o.concurrency : d.concurrency };
  }

  /** Takes a slot and a token for a request at `nowMs`, or names the limit it hits. */
  admit(op: RefOp, nowMs: number, readyWorkers: number): RefCause | undefined {
    const { rate, concurrency } = this.limitOf(op);
    if (concurrency !== null && this.inFlight.get(op)! >= concurrency) return 'concurrency';
    if (rate !== null) {
      const floor = this.cfg.perWorkerRate ? readyWorkers * this.cfg.perWorkerRate : 0;
      const limit = Math.max(rate, floor);
      const used = this.inWindow(this.accepted.get(op)!, nowMs);
      if (used >= limit) return 'rate';
    }
    this.accepted.get(op)!.push(nowMs);
    this.inFlight.set(op, this.inFlight.get(op)! + 1);
    return undefined;
  }

  /** The request was answered (or refused after admission): its slot is free. */
  release(op: RefOp): void {
    this.inFlight.set(op, this.inFlight.get(op)! - 1);
  }

  /** Refused by queue throttling after admission: not accepted, so its token is given back. */
  refund(op: RefOp, nowMs: number): void {
    const times = this.accepted.get(op)!;
    times.splice(times.lastIndexOf(nowMs), 1);
  }

  /** Queue throttling (spec §8.2): more than queueMin AND more than workersMax × queuePerWorker. */
  queueFull(queueLength: number, workersMax: number): boolean {
    return queueLength > this.cfg.queueMin && queueLength > workersMax * this.cfg.queuePerWorker;
  }

  /** Accepted requests counted against a request at `nowMs`. */
  private inWindow(times: number[], nowMs: number): number {
    const w = this.cfg.windowMs;
    if (this.cfg.window === 'sliding') return times.filter((t) => t > nowMs - w).length;
    return times.filter((t) => Math.floor(t / w) === Math.floor(nowMs / w)).length;
  }
}
