/**
 * One open flow's arrivals in the run loop: one pending arrival at a time, each starting a session
 * of the flow's behaviour at its intended time, whatever the sessions before it do (open model).
 */
import type { ArrivalGenerator } from './arrivals/types.js';
import type { Session } from './behaviours/types.js';
import { FlowSessions, NO_USER, type Live } from './flow-sessions.js';
import type { FlowAcc, Recorder } from './record/recorder.js';
import type { Target } from './targets/target.js';
import type { SessionTracer } from '../telemetry/session-tracing.js';

export class FlowDriver extends FlowSessions {
  private intendedMs = 0;
  /** The target's handle of the arrival timer, re-armed for each arrival (`Target.at`). */
  private timer: unknown = undefined;

  constructor(
    name: string,
    start: (s: Session) => void,
    private readonly gen: ArrivalGenerator,
    private readonly durationMs: number,
    target: Target,
    rec: Recorder,
    live: Live,
    acc: FlowAcc,
    tracer?: SessionTracer,
  ) {
    super(name, start, target, rec, live, acc, tracer);
  }

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

  /** An open flow's next arrival does not wait for any session. */
  ended(): void {}

  private readonly arrive = (): void => {
    this.open(this.intendedMs, NO_USER);
    this.schedule();
  };
}
