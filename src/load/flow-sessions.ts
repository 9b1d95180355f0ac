/**
 * What every flow driver shares: starting one session of the flow's behaviour at its intended
 * time (counted, traced, the endpoint probed), and the session itself, which tells its driver
 * when it ends. An open driver ignores that (its times are fixed in advance, flow-driver.ts); a
 * closed one starts the user's next session from it (closed-flow-driver.ts).
 */
import type { TraceRequest } from './arrivals/types.js';
import type { Session } from './behaviours/types.js';
import type { FlowAcc, Recorder } from './record/recorder.js';
import type { Target } from './targets/target.js';
import type { SessionSpan, SessionTracer } from '../telemetry/session-tracing.js';

export interface Live {
  /** Sessions started and not ended. */
  active: number;
  /** Flows that may still start sessions (an open process not ended, a closed user not retired). */
  generating: number;
}

/** A flow as its driver runs it (start-flows.ts makes one per flow): what each session reports to. */
export interface FlowParts {
  name: string;
  /** Runs one session of the flow's behaviour. */
  start: (s: Session) => void;
  target: Target;
  rec: Recorder;
  live: Live;
  acc: FlowAcc;
  /** Undefined when tracing is off: then no session makes a tracer call. */
  tracer: SessionTracer | undefined;
}

/** No user: a session of an open flow. */
export const NO_USER = -1;

/**
 * One bound callback per driver and a small class per session (no closures per arrival: the run
 * loop pays for allocation more than for anything else).
 */
export abstract class FlowSessions {
  private seq = 0;
  readonly name: string;
  private readonly start: (s: Session) => void;
  readonly target: Target;
  readonly rec: Recorder;
  readonly live: Live;
  readonly acc: FlowAcc;
  private readonly tracer: SessionTracer | undefined;

  constructor(p: FlowParts) {
    this.name = p.name;
    this.start = p.start;
    this.target = p.target;
    this.rec = p.rec;
    this.live = p.live;
    this.acc = p.acc;
    this.tracer = p.tracer;
  }

  /** Arms the first session(s) on the target's clock. */
  abstract schedule(): void;

  /** Session of `user` (NO_USER for an open flow) ended, after it was counted. */
  abstract ended(user: number): void;

  /** The intended time of a session armed at `atMs`: a virtual-time target's scheduler floors to whole ms; wall time keeps the fraction. */
  protected intendedAt(atMs: number): number {
    return this.target.clock === 'wall' ? atMs : Math.floor(atMs);
  }

  /** Starts a session now, intended at `intendedMs` (the target's clock); `user`: whose it is; `request`: its trace row's, if any. */
  protected open(intendedMs: number, user: number, request?: TraceRequest): void {
    const { rec, target } = this;
    rec.arrival();
    this.live.active++;
    const s = new FlowSession(this, this.seq++, intendedMs, user, request);
    if (this.tracer) s.trace = this.tracer.start(this.name, target.now());
    rec.sessionStarted(this.acc);
    const p = target.probe();
    if (p) rec.endpointSeen(target.now(), p.queueDepth, p.runningWorkers);
    this.start(s);
  }
}

class FlowSession implements Session {
  done = false;
  first = true;
  hasJob = false;
  queuedMark = Infinity;
  /** This session's span, when traced and sampled. */
  trace: SessionSpan | undefined = undefined;
  sentMs: number;

  constructor(
    private readonly flow: FlowSessions,
    readonly seq: number,
    readonly intendedMs: number,
    private readonly user: number,
    readonly request: TraceRequest | undefined,
  ) {
    this.sentMs = intendedMs;
  }

  end(outcome: string): void {
    if (this.done) return;
    this.done = true;
    const flow = this.flow;
    flow.live.active--;
    flow.rec.sessionEnded(flow.acc, outcome, this.hasJob);
    this.trace?.end(outcome, flow.target.now());
    flow.ended(this.user);
  }
}
