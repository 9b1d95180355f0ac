/**
 * A streamed answer (`ApiResponse.feed`): server-sent events pushed as the simulator produces
 * them, each with the virtual ms it was produced at. The transport listens (the events so far at
 * once, then each new one, then the end) and calls `abort` when its client goes away first.
 */
export type FeedEvent = (data: string, atMs: number) => void;

export class SseFeed {
  /** Every event's `data:`, in order; the last is `[DONE]` when the stream ended normally. */
  readonly events: string[] = [];
  /** The virtual ms each event was produced at (same length as `events`). */
  readonly atMs: number[] = [];
  ended = false;
  private onEvent: FeedEvent | undefined = undefined;
  private listened = false;
  private onEnd: (() => void) | undefined = undefined;
  private readonly finals: (() => void)[] = [];

  /** `aborted`: what the producer does when the client goes away (stop waiting for the job). */
  constructor(private readonly aborted: () => void) {}

  push(data: string, atMs: number): void {
    if (this.ended) return;
    this.events.push(data);
    this.atMs.push(atMs);
    this.onEvent?.(data, atMs);
  }

  /** The last event was pushed. */
  end(): void {
    if (this.ended) return;
    this.ended = true;
    this.onEnd?.();
    this.finish();
  }

  /**
   * The transport's one listener: every event so far now, the rest as they come, then `onEnd`.
   * Without `onEvent` (a transport that takes the stream whole at its end) nothing is sent live.
   */
  listen(onEvent: FeedEvent | undefined, onEnd: () => void): void {
    this.listened = true;
    if (onEvent) for (let i = 0; i < this.events.length; i++) onEvent(this.events[i]!, this.atMs[i]!);
    if (this.ended) return onEnd();
    this.onEvent = onEvent;
    this.onEnd = onEnd;
  }

  /** Are events sent as they come (or may they be: nobody listened yet)? Else the producer may push them in bulk at the end. */
  get live(): boolean {
    return !this.listened || this.onEvent !== undefined;
  }

  /** The client went away before the end: the producer stops; nothing more is pushed. */
  abort(): void {
    if (this.ended) return;
    this.ended = true;
    this.onEvent = this.onEnd = undefined;
    this.aborted();
    this.finish();
  }

  /** Runs `f` once the feed ended or was aborted (the API frees the request's concurrency slot). */
  whenDone(f: () => void): void {
    if (this.ended) f();
    else this.finals.push(f);
  }

  private finish(): void {
    for (const f of this.finals.splice(0)) f();
  }
}
