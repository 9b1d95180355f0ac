/**
 * One open flow's arrivals in the run loop: one pending arrival at a time, each starting a session
 * of the flow's behaviour at its intended time, whatever the sessions before it do (open model).
 */
import type { ArrivalGenerator, TraceRequest } from './arrivals/types.js';
import { FlowSessions, NO_USER, type FlowParts } from './flow-sessions.js';

export class FlowDriver extends FlowSessions {
  private intendedMs = 0;
  /** The pending arrival's request, when its process carries one (a token trace). */
  private request: TraceRequest | undefined = undefined;
  /** The target's handle of the arrival timer, re-armed for each arrival (`Target.at`). */
  private timer: unknown = undefined;

  constructor(
    flow: FlowParts,
    private readonly gen: ArrivalGenerator,
    private readonly durationMs: number,
  ) {
    super(flow);
  }

  schedule(): void {
    const t = this.gen.next();
    if (t === undefined || t >= this.durationMs) {
      this.live.generating--;
      return;
    }
    this.intendedMs = this.intendedAt(t);
    this.request = this.gen.request?.();
    this.timer = this.target.at(t, this.arrive, this.timer);
  }

  /** An open flow's next arrival does not wait for any session. */
  ended(): void {}

  private readonly arrive = (): void => {
    this.open(this.intendedMs, NO_USER, this.request);
    this.schedule();
  };
}
