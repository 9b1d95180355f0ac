/**
 * One flow's arrivals in the run loop: one pending arrival at a time, each starting a session
 * of the flow's behaviour at its intended time (open model).
 */
import type { ArrivalGenerator } from './arrivals/types.js';
import type { Session } from './behaviours/types.js';
import type { FlowAcc, Recorder } from './record/recorder.js';
import type { Target } from './targets/target.js';
import type { SessionSpan, SessionTracer } from '../telemetry/session-tracing.js';

export interface Live {
  /** Sessions started and not ended. */
  active: number;
  /** Flows whose arrival process has not ended. */
  generating: number;
}

/**
 * One flow's arrivals: one pending arrival at a time, each starting a session. One bound
 * callback per flow and a small class per session (no closures per arrival: the run loop pays
 * for allocation more than for anything else).
 */
export class FlowDriver {
  private seq = 0;
  private intendedMs = 0;
  /** The target's handle of the arrival timer, re-armed for each arrival (`Target.at`). */
  private timer: unknown = undefined;

  constructor(
    readonly name: string,
    private readonly start: (s: Session) => void,
    private readonly gen: ArrivalGenerator,
    private readonly durationMs: number,
    readonly target: Target,
    readonly rec: Recorder,
    readonly live: Live,
    readonly acc: FlowAcc,
    /** Undefined when tracing is off: then no session makes a tracer call. */
    private readonly tracer?: SessionTracer,
  ) {}

  schedule(): void {
    const t = this.gen.next();
    if (t === undefined || t >= this.durationMs) {
      this.live.generating--;
      return;
    }
    // The scheduler of a virtual-time target floors to whole ms; wall time keeps the fraction.
    this.intendedMs = this.target.clock === 'wall' ? t : Math.floor(t);
    this.timer = this.target.at(t, this.arrive, this.timer);
  }

  private readonly arrive = (): void => {
    const { rec, target } = this;
    rec.arrival();
    this.live.active++;
    const s = new FlowSession(this, this.seq++, this.intendedMs);
    if (this.tracer) s.trace = this.tracer.start(this.name, target.now());
    rec.sessionStarted(this.acc);
    const p = target.probe();
    if (p) rec.endpointSeen(target.now(), p.queueDepth, p.runningWorkers);
    this.start(s);
    this.schedule();
  };
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
    private readonly flow: FlowDriver,
    readonly seq: number,
    readonly intendedMs: number,
  ) {
    this.sentMs = intendedMs;
  }

  end(outcome: string): void {
    if (this.done) return;
    this.done = true;
    this.flow.live.active--;
    this.flow.rec.sessionEnded(this.flow.acc, outcome, this.hasJob);
    this.trace?.end(outcome, this.flow.target.now());
  }
}
