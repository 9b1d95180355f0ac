/**
 * The workers of one endpoint: starts (cold or FlashBoot), readiness, idle stack, stops, and the
 * injected faults that take worker slots away (throttled: no host capacity; unhealthy: crash loop).
 * Scaling decisions live in scaler.ts; job assignment in endpoint.ts.
 */
import type { EndpointConfig, FaultConfig } from './config.js';
import { Deque } from './deque.js';
import type { Sampler } from './distributions/types.js';
import type { Scheduler } from './scheduler.js';
import type { Worker, WorkerState } from './worker.js';

export interface PoolHost {
  /** A worker became ready (after its start or a fault ended): give it work. */
  onReady(w: Worker): void;
  onState(w: Worker, from: WorkerState | 'none', to: WorkerState | 'stopped'): void;
}

export type WorkerCounts = Record<WorkerState, number>;

export class WorkerPool {
  readonly workers = new Map<string, Worker>();
  readonly counts: WorkerCounts = { initializing: 0, idle: 0, running: 0, throttled: 0, unhealthy: 0 };
  private readonly idleStack: Worker[] = [];
  /** Stop times of recent workers, oldest first: FlashBoot candidates. */
  private readonly recentStops = new Deque<number>();
  private nextId = 1;

  constructor(
    private readonly endpointId: string,
    private readonly cfg: EndpointConfig,
    private readonly sched: Scheduler,
    private readonly coldStart: Sampler,
    private readonly flashStart: Sampler | undefined,
    private readonly host: PoolHost,
  ) {
    for (const f of cfg.faults) {
      if (f.fromMs > 0) sched.at(f.fromMs, () => this.faultBegins(f));
      if (f.toMs !== undefined) sched.at(f.toMs, () => this.faultEnds(f));
    }
  }

  /** Every worker the endpoint has, whatever its state (counts against workersMax). */
  get total(): number {
    return this.workers.size;
  }

  /** Workers that are or will soon be able to run jobs. */
  get live(): number {
    return this.counts.initializing + this.counts.idle + this.counts.running;
  }

  /** Starts a new worker; a fault that is short of workers takes it instead. */
  start(): Worker {
    const w: Worker = { id: `${this.endpointId}-w${this.nextId++}`, state: 'initializing', job: undefined, timer: undefined, idleIdx: -1 };
    this.workers.set(w.id, w);
    const fault = this.faultWanting();
    if (fault) {
      this.counts[fault.kind]++;
      w.state = fault.kind;
      this.host.onState(w, 'none', fault.kind);
      return w;
    }
    this.counts.initializing++;
    this.host.onState(w, 'none', 'initializing');
    this.boot(w);
    return w;
  }

  /** The most recently idle worker (LIFO lets the others reach their idle timeout), or undefined. */
  takeIdle(): Worker | undefined {
    const w = this.idleStack.pop();
    if (!w) return undefined;
    w.idleIdx = -1;
    this.sched.cancel(w.timer);
    w.timer = undefined;
    this.setState(w, 'running');
    return w;
  }

  /** A running worker finished its job: back to idle, with `idleTimeoutMs` set when `expire` says so. */
  release(w: Worker, scheduleIdleStop: boolean): void {
    w.job = undefined;
    this.makeIdle(w, scheduleIdleStop);
  }

  stop(w: Worker): void {
    if (w.idleIdx >= 0) this.removeIdle(w);
    this.sched.cancel(w.timer);
    this.counts[w.state]--;
    this.workers.delete(w.id);
    if (this.flashStart) this.recentStops.push(this.sched.nowMs);
    this.host.onState(w, w.state, 'stopped');
  }

  /** A worker died mid-job: it restarts from cold (the job is the endpoint's business). */
  crash(w: Worker): void {
    w.job = undefined;
    this.setState(w, 'initializing');
    this.boot(w);
  }

  /** Idle workers, most recently idle last. */
  idleWorkers(): readonly Worker[] {
    return this.idleStack;
  }

  /** Cold (or FlashBoot) start; a start of 0 ms is ready at once, so a warm endpoint takes jobs on arrival. */
  private boot(w: Worker): void {
    const flash = this.flashCandidate();
    const ms = flash ? this.flashStart!() : this.coldStart();
    const ready = () => {
      w.timer = undefined;
      this.makeIdle(w, this.cfg.scaler.type !== 'REQUEST_COUNT' && this.total > this.cfg.workersMin);
      this.host.onReady(w);
    };
    if (ms === 0) ready();
    else w.timer = this.sched.after(ms, ready);
  }

  /** True (and consumes the stop) when a worker stopped within the FlashBoot window. */
  private flashCandidate(): boolean {
    if (!this.cfg.flashBoot || !this.flashStart) return false;
    const edge = this.sched.nowMs - this.cfg.flashBoot.windowMs;
    while (this.recentStops.length > 0 && this.recentStops.peek()! < edge) this.recentStops.shift();
    return this.recentStops.shift() !== undefined;
  }

  private makeIdle(w: Worker, scheduleIdleStop: boolean): void {
    this.setState(w, 'idle');
    w.idleIdx = this.idleStack.length;
    this.idleStack.push(w);
    if (scheduleIdleStop) {
      w.timer = this.sched.after(this.cfg.idleTimeoutMs, () => {
        w.timer = undefined;
        if (this.total > this.cfg.workersMin) this.stop(w);
      });
    }
  }

  private removeIdle(w: Worker): void {
    const last = this.idleStack.pop()!;
    if (last !== w) {
      this.idleStack[w.idleIdx] = last;
      last.idleIdx = w.idleIdx;
    }
    w.idleIdx = -1;
  }

  private setState(w: Worker, to: WorkerState): void {
    const from = w.state;
    this.counts[from]--;
    this.counts[to]++;
    w.state = to;
    this.host.onState(w, from, to);
  }

  private active(f: FaultConfig): boolean {
    const now = this.sched.nowMs;
    return now >= f.fromMs && (f.toMs === undefined || now < f.toMs);
  }

  private faultWanting(): FaultConfig | undefined {
    return this.cfg.faults.find((f) => this.active(f) && this.counts[f.kind] < f.workers);
  }

  /** A fault window opens: idle workers are taken first; later starts make up the rest. */
  private faultBegins(f: FaultConfig): void {
    while (this.counts[f.kind] < f.workers && this.idleStack.length > 0) {
      const w = this.idleStack[this.idleStack.length - 1]!;
      this.removeIdle(w);
      this.sched.cancel(w.timer);
      w.timer = undefined;
      this.setState(w, f.kind);
    }
  }

  /** A fault window closes: its workers boot again. */
  private faultEnds(f: FaultConfig): void {
    for (const w of this.workers.values()) {
      if (w.state !== f.kind || this.faultWanting()) continue;
      this.setState(w, 'initializing');
      this.boot(w);
    }
  }
}
