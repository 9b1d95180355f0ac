/**
 * The workers of one endpoint: starts (cold or FlashBoot), readiness, idle stack, stops, and the
 * injected faults that take worker slots away (throttled: no host capacity; unhealthy: crash loop).
 * Scaling decisions live in scaler.ts; job assignment in endpoint.ts.
 *
 * A start that takes longer than `initTimeoutMs` (RunPod's RUNPOD_INIT_TIMEOUT, 7 min by default)
 * ends at that point with the worker unhealthy, for the rest of the run: it never takes a job and
 * keeps its place among the endpoint's workers (it counts against workersMax, as a faulted
 * worker does), but it is no capacity (`live`), so the scaler may start others in the room left.
 * A fault window's end does not revive it.
 *
 * GPU types (`gpus`, in priority order; one unnamed type when unset): a worker starts on the first
 * type with room on the simulated hosts (`hostCapacity`: workers placed on it at once, unlimited
 * when not given) and holds its place from then to its stop, whatever its state. With no room on
 * any type it is throttled, waiting. The hosts' room is the endpoint's alone and fixed, and its
 * workers free places only when they stop, which they do only when nothing wants them: so before
 * an idle worker stops (its idle timeout, REQUEST_COUNT above its target), the waiting workers are
 * withdrawn first (stopped, the newest first: `withdrawWaiting`). A waiting worker never gets a
 * place. Faults take a worker before it is placed.
 */
import type { EndpointConfig, FaultConfig } from '../contract/endpoint-config.js';
import { Deque } from '../lib/deque.js';
import type { Sampler } from '../sampling/types.js';
import type { Scheduler, Timer } from '../lib/scheduler.js';
import { RunSlot, Worker, workerIdPrefix, type Run } from './worker.js';
import type { LlmEngine } from './llm-engine.js';
import type { WorkerState } from '../contract/sim-events.js';
import { WorkerList } from './worker-list.js';

export interface PoolHost {
  /** A worker became ready (after its start or a fault ended): give it work. */
  onReady(w: Worker): void;
  /** A worker's start ran past initTimeoutMs: it is unhealthy now (the scaler may want another). */
  onUnhealthy(w: Worker): void;
  /** A run came to its planned end (its slot's timer: worker.ts). */
  onRunEnd(r: Run): void;
  /** The batching engine of a worker on GPU type `gpu` (an index of the endpoint's gpus; an `llm.engine` endpoint), else undefined. */
  engineFor(gpu: number): LlmEngine | undefined;
  onState(w: Worker, from: WorkerState | 'none', to: WorkerState | 'stopped'): void;
  /** The workers the idle timeout leaves: workersMin, and on a load-balancing endpoint its REQUEST_COUNT target. */
  keep(): number;
}

export type WorkerCounts = Record<WorkerState, number>;

/**
 * Sees each worker's start and stop, with its billed ms (its time in the states `billed` marks),
 * kept on the worker itself: billing a day of millions of short-lived workers builds no event and
 * looks nothing up. `n`: the worker's number.
 */
export interface WorkerLives {
  /** Is time in this state billed? (The cost model's rule: report/worker-bill.ts.) */
  readonly billed: Readonly<Record<WorkerState, boolean>>;
  started(n: number, atMs: number): void;
  /** `gpu`: the GPU type it was placed on (an index of the endpoint's gpus; 0 when it never was). */
  stopped(n: number, atMs: number, billedMs: number, gpu: number): void;
}

export class WorkerPool {
  /** Every worker, whatever its state, oldest first. */
  private readonly workers = new WorkerList();
  readonly counts: WorkerCounts = { initializing: 0, idle: 0, running: 0, throttled: 0, unhealthy: 0 };
  /**
   * Idle workers, oldest idle first. Jobs go to the newest (LIFO), so the oldest reach their idle
   * timeout; one reaper timer for the oldest replaces a timer per idle spell.
   */
  private readonly idle = new Deque<Worker>();
  private reaper: Timer | undefined;
  /** Stop times of recent workers, oldest first: FlashBoot candidates. */
  private readonly recentStops = new Deque<number>();
  private nextId = 1;
  /**
   * Stopped workers' objects, reused by later starts. Nothing else holds a stopped worker: an
   * ended job keeps its worker's number, events carry the id string.
   */
  private readonly spare: Worker[] = [];
  /** A load-balancing endpoint: its idle timeouts stop workers down to the REQUEST_COUNT target, which moves (`idleTimerLook`). */
  private readonly idleTimed: boolean;
  /**
   * Idle workers time out (QUEUE_DELAY, and any load-balancing endpoint: its workers have an idle
   * timer); REQUEST_COUNT on a queue endpoint stops them itself (scaler.ts `surplus`).
   */
  private readonly reaps: boolean;
  /** Worker ids are `{endpoint id}-w{n}`. */
  private readonly prefix: string;
  /** Jobs a worker runs at once (workerConcurrency). */
  private readonly conc: number;
  /** Jobs held by all workers (in progress). */
  jobsHeld = 0;
  /** Workers whose start ran past initTimeoutMs, in all (report.json `workers.unhealthyOnStart`). */
  unhealthyOnStart = 0;
  /** Of `counts.unhealthy`, those unhealthy from a start that ran too long (not a fault's). */
  private stuck = 0;
  /** Watching the workers' lives (watchLives); their times are kept only then. */
  private lives: WorkerLives | undefined = undefined;
  /** ms spent in each state by every worker, up to its latest change (while lives are watched). */
  readonly msByState: Partial<Record<WorkerState, number>> = {};
  /** Per GPU type (an index of cfg.gpus; one type when unset): workers placed on it now, and its room (hostCapacity; Infinity: unlimited). */
  readonly placed: number[];
  private readonly cap: number[];
  /** Workers throttled for want of room on any GPU type, longest waiting first. */
  private readonly hostless = new Deque<Worker>();
  /** Workers counted by state on each GPU type (placed workers only), when the endpoint lists its gpus. */
  readonly countsByGpu: WorkerCounts[] | undefined;
  /** Per GPU type, ms spent in each state by its workers up to their latest change (while lives are watched, with gpus). */
  readonly msByGpu: Partial<Record<WorkerState, number>>[] | undefined;
  /** Workers started on each GPU type (placed), in all. */
  readonly startedOn: number[];

  constructor(
    endpointId: string,
    private readonly cfg: EndpointConfig,
    private readonly sched: Scheduler,
    private readonly coldStart: Sampler,
    private readonly flashStart: Sampler | undefined,
    private readonly host: PoolHost,
  ) {
    this.prefix = workerIdPrefix(endpointId);
    this.idleTimed = cfg.type === 'load-balancer';
    this.reaps = cfg.scaler.type !== 'REQUEST_COUNT' || this.idleTimed;
    this.conc = cfg.workerConcurrency;
    const gpus = cfg.gpus ?? [''];
    this.cap = gpus.map((g) => cfg.hostCapacity?.[g] ?? Infinity);
    this.placed = gpus.map(() => 0);
    this.startedOn = gpus.map(() => 0);
    this.countsByGpu = cfg.gpus?.map(() => ({ initializing: 0, idle: 0, running: 0, throttled: 0, unhealthy: 0 }));
    this.msByGpu = cfg.gpus?.map(() => ({}));
    for (const f of cfg.faults) {
      if (f.fromMs > 0) sched.at(f.fromMs, () => this.faultBegins(f));
      if (f.toMs !== undefined) sched.at(f.toMs, () => this.faultEnds(f));
    }
  }

  /**
   * Free job places on running workers (a worker with room takes queued jobs: `withRoom`). Only
   * running workers hold jobs (a crash or release frees them first): derived, not kept.
   */
  get room(): number {
    return this.counts.running * this.conc - this.jobsHeld;
  }

  /** Every worker the endpoint has, whatever its state (counts against workersMax). */
  get total(): number {
    return this.workers.size;
  }

  /** Every worker, oldest first. */
  all(): IterableIterator<Worker> {
    return this.workers.values();
  }

  /** Workers that are or will soon be able to run jobs. */
  get live(): number {
    return this.counts.initializing + this.counts.idle + this.counts.running;
  }

  /**
   * From now on, tells `l` of every worker's start and stop (the workers alive now start now) and
   * keeps their times (msByState, each worker's billedMs and sinceMs).
   */
  watchLives(l: WorkerLives): void {
    const now = this.sched.nowMs;
    this.lives = l;
    for (const w of this.workers.values()) {
      w.sinceMs = now;
      w.billedMs = 0;
      l.started(w.n, now);
    }
  }

  /** Adds the time since the worker's last change to its state's and (billed) to the worker's. */
  private clock(w: Worker, now: number): void {
    const ms = now - w.sinceMs;
    w.sinceMs = now;
    if (ms <= 0) return;
    const m = this.msByState;
    m[w.state] = (m[w.state] ?? 0) + ms;
    if (this.msByGpu !== undefined && w.gpu >= 0) {
      const g = this.msByGpu[w.gpu]!;
      g[w.state] = (g[w.state] ?? 0) + ms;
    }
    if (this.lives!.billed[w.state]) w.billedMs += ms;
  }

  /**
   * Starts a new worker; a fault that is short of workers takes it instead. `resume`: the number
   * of a stopped worker to start again under its own id (a load-balancing endpoint's
   * `strict-resume` affinity: `canResume`).
   */
  start(resume?: number): Worker {
    const n = resume ?? this.nextId++;
    const w = this.spare.pop()?.renew(n) ?? this.newWorker(n);
    this.workers.add(w);
    if (this.idleTimed) this.idleTimerLook();
    const lives = this.lives;
    if (lives !== undefined) {
      const now = this.sched.nowMs;
      w.sinceMs = now;
      w.billedMs = 0;
      lives.started(n, now);
    }
    const fault = this.faultWanting();
    if (fault) {
      this.counts[fault.kind]++;
      w.state = fault.kind;
      this.host.onState(w, 'none', fault.kind);
      return w;
    }
    const t = this.roomOn();
    if (t < 0) {
      this.counts.throttled++;
      w.state = 'throttled';
      w.hostless = true;
      this.hostless.push(w);
      this.host.onState(w, 'none', 'throttled');
      return w;
    }
    this.counts.initializing++;
    this.placeOn(w, t);
    this.host.onState(w, 'none', 'initializing');
    this.boot(w);
    return w;
  }

  /** The first GPU type (in priority order) with room for one more worker, or -1. */
  private roomOn(): number {
    const { cap, placed } = this;
    for (let t = 0; t < cap.length; t++) if (placed[t]! < cap[t]!) return t;
    return -1;
  }

  /** `w` takes a place on GPU type `t` (counted in its present state), with that type's engine. */
  private placeOn(w: Worker, t: number): void {
    w.gpu = t;
    this.placed[t]!++;
    this.startedOn[t]!++;
    if (this.countsByGpu !== undefined) add(this.countsByGpu[t]!, w.state, 1);
    if (w.engine !== undefined && w.engineGpu !== t) {
      w.engine = this.host.engineFor(t);
      w.engineGpu = t;
    }
  }

  /** Workers waiting for a place on a GPU type (throttled, not by a fault). */
  get waiting(): number {
    return this.hostless.length;
  }

  /** Stops waiting workers, the newest first, while more than `keep` workers remain. */
  withdrawWaiting(keep: number): void {
    while (this.hostless.length > 0 && this.total > keep) this.stop(this.hostless.peekBack()!);
  }

  private newWorker(n: number): Worker {
    const w = new Worker(this.prefix, n, this.onTimer);
    w.engine = this.host.engineFor(0);
    w.engineGpu = 0;
    // Run slots for jobs the worker times itself: all of them without an engine; beside an engine,
    // a load-balancing endpoint's plain requests (endpoint.ts `start`).
    if ((w.engine === undefined || this.cfg.type === 'load-balancer') && this.conc > 1) {
      w.runs = [w];
      for (let i = 1; i < this.conc; i++) w.runs.push(new RunSlot(w, this.onTimer));
    }
    return w;
  }

  /** The worker numbered `n` if it exists now (any state), else undefined. O(workers): affinity requests only. */
  byNumber(n: number): Worker | undefined {
    for (let w = this.workers.first; w; w = w.poolNext) if (w.n === n) return w;
    return undefined;
  }

  /** Can worker `n`, stopped, start again under its id? It existed, is stopped, and workersMax leaves room. */
  canResume(n: number): boolean {
    return Number.isInteger(n) && n >= 1 && n < this.nextId && this.total < this.cfg.workersMax;
  }

  /** Is `w` ready with room for one more job (idle, or running below workerConcurrency)? */
  hasRoom(w: Worker): boolean {
    return w.state === 'idle' || (w.state === 'running' && w.held < this.conc);
  }

  /** `w`, ready with room (`hasRoom`), is about to take a job: an idle one leaves the idle stack, running. */
  claim(w: Worker): void {
    if (w.state !== 'idle') return;
    if (this.idle.peekBack() === w) this.idle.pop();
    else this.idle.remove(w);
    this.setState(w, 'running');
  }

  /** The most recently idle worker (LIFO lets the others reach their idle timeout), or undefined. */
  takeIdle(): Worker | undefined {
    const w = this.idle.pop();
    if (w) this.setState(w, 'running');
    return w;
  }

  /**
   * A running worker with room for another job (workerConcurrency > 1): the one with the most
   * room, the oldest of those on a tie; undefined when none has any.
   */
  withRoom(): Worker | undefined {
    if (this.room === 0) return undefined;
    let best: Worker | undefined;
    for (let w = this.workers.first; w; w = w.poolNext) {
      if (w.state === 'running' && w.held < this.conc && (best === undefined || w.held < best.held)) best = w;
    }
    return best;
  }

  /** `w` (running) takes a job. */
  took(w: Worker): void {
    w.held++;
    this.jobsHeld++;
  }

  /** A job of `w` left it (ended, or was taken away). */
  freed(w: Worker): void {
    w.held--;
    this.jobsHeld--;
    // A load-balancing endpoint's target fell: workers idle past their timeout may stop now.
    if (this.idleTimed) this.idleTimerLook();
  }

  /** The most recently idle worker, left idle, or undefined. */
  newestIdle(): Worker | undefined {
    return this.idle.peekBack();
  }

  /** A running worker finished its last job and nothing waits: back to idle. */
  release(w: Worker): void {
    w.job = undefined;
    this.makeIdle(w);
  }

  /** Stops a worker; an idle one must be the newest or the oldest idle worker. */
  stop(w: Worker): void {
    if (w.startTimesOut && w.state === 'unhealthy') this.stuck--;
    if (w.state === 'idle') {
      if (this.idle.peekBack() === w) this.idle.pop();
      else if (this.idle.peek() === w) this.idle.shift();
      else this.idle.remove(w);
    }
    this.sched.cancel(w);
    add(this.counts, w.state, -1);
    this.workers.delete(w);
    const lives = this.lives;
    if (lives !== undefined) {
      const now = this.sched.nowMs;
      this.clock(w, now);
      lives.stopped(w.n, now, w.billedMs, Math.max(0, w.gpu));
    }
    if (this.flashStart) this.recentStops.push(this.sched.nowMs);
    this.host.onState(w, w.state, 'stopped');
    const t = w.gpu;
    if (t >= 0) {
      if (this.countsByGpu !== undefined) add(this.countsByGpu[t]!, w.state, -1);
      this.placed[t]!--;
      w.gpu = -1;
    } else if (w.hostless) {
      this.hostless.remove(w);
      w.hostless = false;
    }
    if (w.held === 0) this.spare.push(w);
  }

  /** A worker died mid-job: it restarts from cold (its jobs are the endpoint's business: it took them away first). */
  crash(w: Worker): void {
    w.job = undefined;
    this.setState(w, 'initializing');
    this.boot(w);
  }

  /**
   * Cold (or FlashBoot) start; a start of 0 ms is ready at once, so a warm endpoint takes jobs on
   * arrival. One longer than initTimeoutMs ends at initTimeoutMs, unhealthy (`startTimedOut`).
   */
  private boot(w: Worker): void {
    w.bootFromMs = this.sched.nowMs;
    const flash = this.flashCandidate();
    const ms = flash ? this.flashStart!() : this.coldStart();
    w.startTimesOut = ms > this.cfg.initTimeoutMs;
    if (ms === 0) this.booted(w);
    else this.sched.again(w, this.sched.nowMs + (w.startTimesOut ? this.cfg.initTimeoutMs : ms));
  }

  /** A worker's timer (the end of its cold start, or of its first slot's run) or a further slot's (a run's end). */
  private readonly onTimer = (r: Run): void => {
    const w = r.worker;
    if (r === w && w.state === 'initializing') {
      if (w.startTimesOut) this.startTimedOut(w);
      else this.booted(w);
    } else this.host.onRunEnd(r);
  };

  /** The start ran past initTimeoutMs: unhealthy from now on (see the file's comment). */
  private startTimedOut(w: Worker): void {
    this.unhealthyOnStart++;
    this.stuck++;
    this.setState(w, 'unhealthy');
    this.host.onUnhealthy(w);
  }

  private booted(w: Worker): void {
    this.makeIdle(w);
    this.host.onReady(w);
  }

  /** True (and consumes the stop) when a worker stopped within the FlashBoot window. */
  private flashCandidate(): boolean {
    if (!this.cfg.flashBoot || !this.flashStart) return false;
    const edge = this.sched.nowMs - this.cfg.flashBoot.windowMs;
    while (this.recentStops.length > 0 && this.recentStops.peek()! < edge) this.recentStops.shift();
    return this.recentStops.shift() !== undefined;
  }

  private makeIdle(w: Worker): void {
    this.setState(w, 'idle');
    w.idleSinceMs = this.sched.nowMs;
    this.idle.push(w);
    if (!this.reaper && this.reaps) this.armReaper();
  }

  /**
   * Idle timeout (`reaps`): the oldest idle worker stops `idleTimeoutMs` after it became idle,
   * while more than the host keeps remain (workersMin; a load-balancing endpoint's REQUEST_COUNT
   * target too, so that the scaler does not start at once what the timeout stopped).
   */
  private armReaper(): void {
    const oldest = this.idle.peek();
    if (!oldest) return;
    this.reaper = this.sched.at(oldest.idleSinceMs + this.cfg.idleTimeoutMs, this.reap);
  }

  /**
   * The workers are more than the host keeps, maybe: its `keep` fell (a load-balancing
   * endpoint's request ended) or a worker started. Idle workers whose timeout came while they were
   * kept stop at the end of this ms (down to what the host keeps then).
   */
  private idleTimerLook(): void {
    if (this.reaper !== undefined) return;
    const oldest = this.idle.peek();
    if (oldest !== undefined && oldest.idleSinceMs + this.cfg.idleTimeoutMs <= this.sched.nowMs) this.reap();
  }

  /**
   * The oldest idle worker's timeout came: the stops come at the end of this ms (scheduler.ts
   * `atEndOfMs`), so a job arriving in the same ms still finds it idle. `reaper` stays set meanwhile.
   */
  private readonly reap = (): void => {
    this.reaper = this.sched.againAtEndOfMs((this.reapEnd ??= this.sched.atEndOfMs(this.reapDue)));
  };

  private reapEnd: Timer | undefined = undefined;

  private readonly reapDue = (): void => {
    this.reaper = undefined;
    const edge = this.sched.nowMs - this.cfg.idleTimeoutMs;
    // Nothing wants the workers waiting for a place: they go before an idle worker does.
    const oldest = this.idle.peek();
    const keep = this.host.keep();
    if (this.hostless.length > 0 && oldest !== undefined && oldest.idleSinceMs <= edge) this.withdrawWaiting(keep);
    for (let w = this.idle.peek(); w && w.idleSinceMs <= edge; w = this.idle.peek()) {
      if (this.total <= keep) return; // re-armed by the next worker going idle
      this.stop(w);
    }
    this.armReaper();
  };

  private setState(w: Worker, to: WorkerState): void {
    const from = w.state;
    add(this.counts, from, -1);
    add(this.counts, to, 1);
    if (this.countsByGpu !== undefined && w.gpu >= 0) {
      const c = this.countsByGpu[w.gpu]!;
      add(c, from, -1);
      add(c, to, 1);
    }
    if (this.lives !== undefined) this.clock(w, this.sched.nowMs);
    w.state = to;
    this.host.onState(w, from, to);
  }

  private active(f: FaultConfig): boolean {
    const now = this.sched.nowMs;
    return now >= f.fromMs && (f.toMs === undefined || now < f.toMs);
  }

  private faultWanting(): FaultConfig | undefined {
    // Most endpoints have no faults, and this runs on every worker start.
    if (this.cfg.faults.length === 0) return undefined;
    return this.cfg.faults.find((f) => this.active(f) && this.faulted(f.kind) < f.workers);
  }

  /** Workers a fault of this kind holds (an unhealthy start is none of a fault's, a worker waiting for a host none of a throttling's). */
  private faulted(kind: FaultConfig['kind']): number {
    return kind === 'unhealthy' ? this.counts.unhealthy - this.stuck : this.counts.throttled - this.hostless.length;
  }

  /** A fault window opens: idle workers are taken first; later starts make up the rest. */
  private faultBegins(f: FaultConfig): void {
    while (this.faulted(f.kind) < f.workers && this.idle.length > 0) this.setState(this.idle.pop()!, f.kind);
  }

  /** A fault let go of `w`: it boots again, placed first when it never was (throttled, waiting, when no type has room). */
  private unfault(w: Worker): void {
    if (w.gpu < 0) {
      const t = this.roomOn();
      if (t < 0) {
        if (w.state !== 'throttled') this.setState(w, 'throttled');
        w.hostless = true;
        this.hostless.push(w);
        return;
      }
      this.setState(w, 'initializing');
      this.placeOn(w, t);
    } else this.setState(w, 'initializing');
    this.boot(w);
  }

  /** A fault window closes: its workers boot again. */
  private faultEnds(f: FaultConfig): void {
    for (let w = this.workers.first; w; ) {
      const seq = w.poolSeq;
      if (w.state === f.kind && !(f.kind === 'unhealthy' && w.startTimesOut) && !w.hostless && !this.faultWanting()) this.unfault(w);
      w = this.workers.after(w, seq);
    }
  }
}

/**
 * `counts[state] += d`, spelt out: a switch on the state compares interned strings, where
 * `counts[state]` is a keyed lookup (this runs on every state change: several per job).
 */
function add(counts: WorkerCounts, state: WorkerState, d: number): void {
  switch (state) {
    case 'idle':
      counts.idle += d;
      break;
    case 'running':
      counts.running += d;
      break;
    case 'initializing':
      counts.initializing += d;
      break;
    case 'throttled':
      counts.throttled += d;
      break;
    case 'unhealthy':
      counts.unhealthy += d;
      break;
  }
}
