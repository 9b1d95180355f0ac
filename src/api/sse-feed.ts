/**
 * A streamed answer (`ApiResponse.feed`): server-sent events pushed as the simulator produces
 * them, each with the virtual ms it was produced at. The transport listens (the events so far at
 * once, then each new one, then the end) and calls `abort` when its client goes away first.
 *
 * A transport that takes the stream whole at its end (the in-process target) listens without an
 * event callback: the feed is not live, and its producer may push a token as its index alone
 * (`push(k)`), spelt out only if someone reads `events` (`setTokenWriter`). The run's recorder
 * reads `digest()` instead: the content events' instants, the usage count and the error code,
 * with no text written or parsed (a day of streamed tokens would spend most of its time there).
 */
export type FeedEvent = (data: string, atMs: number) => void;

/** What a streamed answer's reader needs of it (load/behaviours/sse-content.ts reads the same from text). */
export interface FeedDigest {
  /** When each content event was produced. */
  atMs: number[];
  /** `usage.completion_tokens` of the usage event, if one was sent. */
  usageTokens: number | undefined;
  /** `usage.prompt_tokens_details.cached_tokens`, if the usage event carried the details (prefix caching). */
  cachedTokens: number | undefined;
  /** The error event's code ('' without one), if the stream ended with an error. */
  errorCode: string | undefined;
  /** Events other than `[DONE]`. */
  events: number;
}

export class SseFeed {
  /** Each event's `data:` (or a token's index, or a function that spells the event, not yet called), in order. */
  private readonly items: (string | number | (() => string))[] = [];
  /** The virtual ms each event was produced at (same length as the events). */
  readonly atMs: number[] = [];
  ended = false;
  /** Set by the producer when it pushes the usage event or an error event (`digest`). */
  usageTokens: number | undefined = undefined;
  cachedTokens: number | undefined = undefined;
  errorCode: string | undefined = undefined;
  private onEvent: FeedEvent | undefined = undefined;
  private listened = false;
  private onEnd: (() => void) | undefined = undefined;
  private readonly finals: (() => void)[] = [];
  /** Spells out tokens `from` to `to - 1` (`push(k)`). */
  private tokenWriter: ((from: number, to: number) => string[]) | undefined = undefined;

  /** `aborted`: what the producer does when the client goes away (stop waiting for the job). */
  constructor(private readonly aborted: () => void) {}

  /** How tokens pushed as indexes are spelt out. */
  setTokenWriter(w: (from: number, to: number) => string[]): void {
    this.tokenWriter = w;
  }

  /** An event: its text, token `k`'s index, or a function that spells it (called only if read). */
  push(data: string | number | (() => string), atMs: number): void {
    if (this.ended) return;
    this.items.push(data);
    this.atMs.push(atMs);
    if (this.onEvent !== undefined) this.onEvent(typeof data === 'string' ? data : typeof data === 'number' ? this.write(data, data + 1)[0]! : data(), atMs);
  }

  /** Every event's `data:`, in order; the last is `[DONE]` when the stream ended normally. */
  get events(): string[] {
    const it = this.items;
    for (let i = 0; i < it.length; i++) {
      const k = it[i];
      if (typeof k === 'function') it[i] = k();
      if (typeof k !== 'number') continue;
      let j = i;
      while (j + 1 < it.length && it[j + 1] === (it[j] as number) + 1) j++;
      const texts = this.write(k, (it[j] as number) + 1);
      for (let m = i; m <= j; m++) it[m] = texts[m - i]!;
      i = j;
    }
    return it as string[];
  }

  /** The stream as its reader measures it, for a feed that was never live (its tokens were pushed as indexes). */
  digest(): FeedDigest {
    const atMs: number[] = [];
    let events = 0;
    for (let i = 0; i < this.items.length; i++) {
      const d = this.items[i];
      if (typeof d === 'number') atMs.push(this.atMs[i]!);
      if (d !== '[DONE]') events++;
    }
    return { atMs, usageTokens: this.usageTokens, cachedTokens: this.cachedTokens, errorCode: this.errorCode, events };
  }

  private write(from: number, to: number): string[] {
    if (!this.tokenWriter) throw new Error('a token was pushed as an index with no token writer');
    return this.tokenWriter(from, to);
  }

  /**
   * The transport's one listener: every event so far now, the rest as they come, then `onEnd`.
   * Without `onEvent` (a transport that takes the stream whole at its end) nothing is sent live.
   */
  listen(onEvent: FeedEvent | undefined, onEnd: () => void): void {
    this.listened = true;
    if (onEvent) {
      const ev = this.events;
      for (let i = 0; i < ev.length; i++) onEvent(ev[i]!, this.atMs[i]!);
    }
    if (this.ended) return onEnd();
    this.onEvent = onEvent;
    this.onEnd = onEnd;
  }

  /** Are events sent as they come (or may they be: nobody listened yet)? Else the producer may push them in bulk at the end. */
  get live(): boolean {
    return !this.listened || this.onEvent !== undefined;
  }

  /** The last event was pushed. */
  end(): void {
    if (this.ended) return;
    this.ended = true;
    this.onEnd?.();
    this.finish();
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
