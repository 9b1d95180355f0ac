/**
 * What a run's workers are billed (the cost model of `loadlab plan` and of `loadlab run`'s
 * `workers` section), from their lifetimes (the simulator's
 * `worker.state` events, Target.watchWorkers). Pure: no I/O, no clock. Prices: prices.ts.
 *
 * - Active workers (`workersMin` of them) are billed for the whole run, whatever they do, at the
 *   active price.
 * - Every other worker is a flex worker, billed per second, rounded up, from its start to its stop
 *   (the idle-timeout tail included, even past the run's end for a worker idle when the run
 *   ended), at the flex price. Time spent initializing (the cold start) is not billed unless the
 *   endpoint's `billing.initializing` is true (RunPod's workers page, since 2026-06-29: not billed;
 *   its pricing page still bills start time). Time throttled (wanted, but no host had room) or
 *   unhealthy (crash-looping) is never billed.
 * - Which worker is active: going through starts and stops in time order, a worker that starts
 *   while fewer than `workersMin` active workers are alive takes an active slot; a stopped active
 *   worker frees its slot for the next worker to start.
 */
import type { EndpointConfig } from '../contract/endpoint-config.js';
import { WORKER_STATES, type WorkerState } from '../contract/sim-events.js';

/** One worker's life on the endpoint (Target.watchWorkers in load/targets/target.ts). */
export interface WorkerLifetime {
  workerId: string;
  /** When it started (its first state: initializing, or throttled when no host had room). */
  startMs: number;
  /** When it stopped; null: still alive when the lifetimes were read. */
  stopMs: number | null;
  /** ms spent in each state up to its stop (or the read). */
  msByState: Partial<Record<WorkerState, number>>;
  /** A worker still alive at the read: its state then, and since when. */
  alive?: { state: WorkerState; sinceMs: number };
}

/** What a run's workers are billed for. */
export interface WorkerBill {
  /** workersMin × the run's length, rounded up to whole seconds. */
  activeSeconds: number;
  /** Σ over flex workers of their billed time, each rounded up to whole seconds. */
  flexSeconds: number;
  /** Workers started in all (active and flex). */
  workersStarted: number;
  /** Worker-seconds in each state, over all workers (not rounded). */
  secondsByState: Record<string, number>;
  /**
   * An endpoint that lists its GPU types (`gpus`): the bill of each type's workers, in priority
   * order (GpuBill). The seconds above are their sums.
   */
  byGpu?: GpuBill[];
}

/**
 * The workers of one GPU type: their flex seconds (each worker rounded up), the active seconds
 * of the workersMin slots their active workers held (workersMin × the run, shared out by the time
 * each type's active workers held a slot: not rounded), workers placed on it, and their seconds by state.
 */
export interface GpuBill {
  gpu: string;
  activeSeconds: number;
  flexSeconds: number;
  workersStarted: number;
  secondsByState: Record<string, number>;
}

/**
 * workersMin × the run's seconds shared out over GPU types by the ms active workers of each held a
 * slot (all of it on the first type when none held one).
 */
export function shareActive(activeSeconds: number, activeMsByGpu: readonly number[]): number[] {
  const held = activeMsByGpu.reduce((a, b) => a + b, 0);
  return activeMsByGpu.map((ms, t) => (held > 0 ? (activeSeconds * ms) / held : t === 0 ? activeSeconds : 0));
}

/** The states whose time is billed: idle and running, and initializing when the rule says so. */
export function billedStates(initializing: boolean): WorkerState[] {
  return WORKER_STATES.filter((s) => s === 'idle' || s === 'running' || (initializing && s === 'initializing'));
}

/** Is time in each state billed? (Throttled and unhealthy never are; initializing when `initializing`.) */
export function billedByState(initializing: boolean): Readonly<Record<WorkerState, boolean>> {
  const b = billedStates(initializing);
  return Object.fromEntries(WORKER_STATES.map((s) => [s, b.includes(s)])) as Record<WorkerState, boolean>;
}

/** How an endpoint's workers are billed: its workersMin active slots, the idle tail of a flex worker idle at the end, and whether initializing is billed. */
export interface BillingRule {
  workersMin: number;
  /** idleTimeoutMs, but 0 under REQUEST_COUNT (it stops surplus workers at once). */
  idleTailMs: number;
  /** Time initializing (the cold start) is billed: the endpoint's `billing.initializing` (default false). */
  initializing: boolean;
}

export function billingRule(ep: Pick<EndpointConfig, 'workersMin' | 'idleTimeoutMs' | 'scaler' | 'billing'>): BillingRule {
  return {
    workersMin: ep.workersMin,
    idleTailMs: ep.scaler.type === 'REQUEST_COUNT' ? 0 : ep.idleTimeoutMs,
    initializing: ep.billing?.initializing ?? false,
  };
}

/** A worker alive at the read: its billed ms up to then, plus the idle tail when it is idle. */
export function aliveBilledMs(billedMs: number, state: WorkerState, sinceMs: number, nowMs: number, idleTailMs: number): number {
  return billedMs + (state === 'idle' ? Math.max(0, sinceMs + idleTailMs - nowMs) : 0);
}

/**
 * The slot and rounding rule of the file's comment, fed in time order (starts, and stops with the
 * worker's billed ms); it keeps only the alive active workers, so a day of millions of short-lived
 * workers costs no memory. Events of one ms are settled together when time moves on: stops before
 * starts (a slot freed in a ms is taken by a start in it), starts in the order they came.
 */
export class WorkerMeter<K = string> {
  started = 0;
  private flexSeconds = 0;
  /** Flex seconds by GPU type of the workers stopped so far (an index of the endpoint's gpus; one entry when it lists none); readWith adds the alive. */
  private readonly flexByGpu: number[];
  /** ms active workers held a slot, by GPU type (those stopped so far; readWith adds the alive). */
  private readonly activeMsByGpu: number[];
  /** The alive active workers, and since when each holds its slot. */
  private readonly active = new Map<K, number>();
  private activeAlive = 0;
  private atMs = -Infinity;
  /**
   * The starts and stops of the ms being settled (the first `nStarts` and `nStops`; the arrays are
   * reused, never truncated: the meter settles once per ms with events, on the simulator's hot path).
   */
  private readonly starts: K[] = [];
  private nStarts = 0;
  private readonly stopIds: K[] = [];
  private readonly stopBilledMs: number[] = [];
  private readonly stopGpus: number[] = [];
  private nStops = 0;

  /** `K`: what tells workers apart (an id, or a worker's number); `gpus`: GPU types the endpoint lists (1 when none). */
  constructor(
    private readonly workersMin: number,
    gpus = 1,
  ) {
    this.flexByGpu = new Array<number>(gpus).fill(0);
    this.activeMsByGpu = new Array<number>(gpus).fill(0);
  }

  start(id: K, atMs: number): void {
    if (atMs !== this.atMs) this.advance(atMs);
    this.started++;
    this.starts[this.nStarts++] = id;
  }

  /** `gpu`: the GPU type it was placed on (an index; 0 when the endpoint lists none). */
  stop(id: K, atMs: number, billedMs: number, gpu = 0): void {
    if (atMs !== this.atMs) this.advance(atMs);
    this.stopIds[this.nStops] = id;
    this.stopGpus[this.nStops] = gpu;
    this.stopBilledMs[this.nStops++] = billedMs;
  }

  /**
   * Flex seconds so far, with the workers still alive (billed ms each, aliveBilledMs) added.
   * Read at the end; reading again gives the same (readWith).
   */
  flexWith(alive: Iterable<{ id: K; billedMs: number; gpu?: number }>, endMs = this.atMs): number {
    return this.readWith(alive, endMs).flexSeconds;
  }

  /**
   * flexWith, and each GPU type's flex seconds and ms its active workers held a slot, the alive
   * ones' until `endMs`: new arrays, the meter's own totals unchanged (a run's report and a plan's
   * row may both read one meter).
   */
  readWith(
    alive: Iterable<{ id: K; billedMs: number; gpu?: number }>,
    endMs = this.atMs,
  ): { flexSeconds: number; flexByGpu: number[]; activeMsByGpu: number[] } {
    this.settle();
    let s = this.flexSeconds;
    const flexByGpu = [...this.flexByGpu];
    const activeMsByGpu = [...this.activeMsByGpu];
    for (const a of alive) {
      const since = this.active.get(a.id);
      if (since !== undefined) {
        activeMsByGpu[a.gpu ?? 0]! += Math.max(0, endMs - since);
        continue;
      }
      const sec = Math.ceil(a.billedMs / 1000);
      s += sec;
      flexByGpu[a.gpu ?? 0]! += sec;
    }
    return { flexSeconds: s, flexByGpu, activeMsByGpu };
  }

  private advance(atMs: number): void {
    this.settle();
    this.atMs = atMs;
  }

  private settle(): void {
    const nStarts = this.nStarts;
    const nStops = this.nStops;
    if (nStarts === 0 && nStops === 0) return;
    const { active, stopIds } = this;
    // With no active worker alive (most workers are flex), no stop frees a slot.
    if (this.activeAlive > 0) for (let i = 0; i < nStops; i++) if (active.has(stopIds[i]!)) this.activeAlive--;
    for (let i = 0; i < nStarts && this.activeAlive < this.workersMin; i++) {
      active.set(this.starts[i]!, this.atMs);
      this.activeAlive++;
    }
    for (let i = 0; i < nStops; i++) {
      if (active.size > 0) {
        const since = active.get(stopIds[i]!);
        if (since !== undefined) {
          active.delete(stopIds[i]!);
          this.activeMsByGpu[this.stopGpus[i]!]! += this.atMs - since;
          continue;
        }
      }
      const sec = Math.ceil(this.stopBilledMs[i]! / 1000);
      this.flexSeconds += sec;
      this.flexByGpu[this.stopGpus[i]!]! += sec;
    }
    this.nStarts = 0;
    this.nStops = 0;
  }
}

/**
 * The bill of worker lifetimes (a run `runMs` long; the alive ones closed at `runMs`), through
 * WorkerMeter. `idleTailMs`: how long a flex worker idle at the run's end stays before it stops
 * (BillingRule): billed too, though the run ended first; `initializing`: time initializing is billed.
 */
export function billWorkers(lives: readonly WorkerLifetime[], workersMin: number, runMs: number, idleTailMs = 0, initializing = false): WorkerBill {
  const billed: Readonly<Record<string, boolean>> = billedByState(initializing);
  const billedMsOf = (l: WorkerLifetime) => Object.entries(l.msByState).reduce((n, [st, ms]) => (billed[st] ? n + ms : n), 0);
  const events = lives
    .flatMap((l, i) => [{ at: l.startMs, stop: false, i }, ...(l.stopMs === null ? [] : [{ at: l.stopMs, stop: true, i }])])
    .sort((a, b) => a.at - b.at || Number(b.stop) - Number(a.stop) || a.i - b.i);
  const meter = new WorkerMeter(workersMin);
  for (const e of events) {
    const l = lives[e.i]!;
    if (e.stop) meter.stop(l.workerId, e.at, billedMsOf(l));
    else meter.start(l.workerId, e.at);
  }
  const alive = lives
    .filter((l) => l.stopMs === null)
    .map((l) => ({
      id: l.workerId,
      billedMs: l.alive ? aliveBilledMs(billedMsOf(l), l.alive.state, l.alive.sinceMs, runMs, idleTailMs) : billedMsOf(l),
    }));
  const byState: Record<string, number> = {};
  for (const l of lives) for (const [state, ms] of Object.entries(l.msByState)) byState[state] = (byState[state] ?? 0) + ms;
  return {
    activeSeconds: workersMin * Math.ceil(runMs / 1000),
    flexSeconds: meter.flexWith(alive),
    workersStarted: lives.length,
    secondsByState: secondsOf(byState),
  };
}

/** ms by state → seconds by state, keys sorted. */
export function secondsOf(msByState: Record<string, number>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const k of Object.keys(msByState).sort()) out[k] = msByState[k]! / 1000;
  return out;
}
