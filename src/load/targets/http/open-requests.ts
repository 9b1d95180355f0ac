/**
 * The HTTP target's requests in flight, for client timeouts without a timer per request: one
 * list per client timeout value (a flow's requests share one), each in send order and so in
 * deadline order, so a sweep looks only at the heads of the lists (O(expired + lists), not
 * O(in flight)). Exchanges undici is done with are kept for the next requests.
 */
import { HttpExchange } from './http-exchange.js';
import type { TargetResponse } from '../target.js';

interface Lane {
  head: HttpExchange | undefined;
  tail: HttpExchange | undefined;
}

export class OpenRequests {
  private readonly lanes = new Map<number, Lane>();
  private readonly free: HttpExchange[] = [];
  private readonly release = (x: HttpExchange): void => {
    if (x.lane === undefined && this.free.length < 4096) this.free.push(x);
  };

  constructor(
    private readonly done: (x: HttpExchange, r: TargetResponse) => void,
    /** The target's clock (server-sent events are stamped with it). */
    private readonly now?: () => number,
  ) {}

  /** An exchange for a request sent at `nowMs` that times out after `timeoutMs`. */
  open(nowMs: number, timeoutMs: number): HttpExchange {
    let lane = this.lanes.get(timeoutMs);
    if (!lane) this.lanes.set(timeoutMs, (lane = { head: undefined, tail: undefined }));
    let x = this.free.pop();
    if (x) x.reuse(nowMs + timeoutMs);
    else {
      x = new HttpExchange(nowMs + timeoutMs, this.done, this.now);
      x.released = this.release;
    }
    x.lane = lane;
    x.prev = lane.tail;
    if (lane.tail) lane.tail.next = x;
    else lane.head = x;
    lane.tail = x;
    return x;
  }

  /** `x` is answered or timed out: out of its lane. */
  close(x: HttpExchange): void {
    const lane = x.lane as Lane;
    if (x.prev) x.prev.next = x.next;
    else lane.head = x.next;
    if (x.next) x.next.prev = x.prev;
    else lane.tail = x.prev;
    x.prev = x.next = undefined;
    x.lane = undefined;
  }

  /** Times out every request whose deadline is at or before `nowMs` (`timeOut` closes it). */
  expire(nowMs: number): void {
    for (const lane of this.lanes.values()) {
      while (lane.head && lane.head.deadlineMs <= nowMs) lane.head.timeOut();
    }
  }
}
