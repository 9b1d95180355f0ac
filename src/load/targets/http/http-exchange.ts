/**
 * One request/answer over undici's low-level `dispatch` (no promise chain, no stream object, no
 * AbortController or timer per request: the HTTP target sweeps deadlines in one pass). The answer
 * is parsed as JSON, or as server-sent events when the content type says so. Server-sent events
 * are parsed as they arrive, each stamped with the target's clock when its block was complete; a
 * stream that breaks (transport error, client timeout) answers with the events that came.
 *
 * The handler uses the callbacks undici's core calls itself (onConnect, onHeaders, onData,
 * onComplete, onError; typed as deprecated in undici 7): a handler with the newer onRequestStart
 * family is wrapped per request in an adapter that also turns the raw headers (and trailers) into
 * an object. Here the raw headers are scanned for the two headers read (content-type, and a
 * load-balancing endpoint's x-runpod-worker-id), and the
 * generator's per-request work and garbage stay smaller (docs/performance.md, "HTTP load generator").
 */
import type { Dispatcher } from 'undici';
import type { TargetResponse } from '../target.js';
import { WORKER_ID_HEADER } from '../../../contract/worker-id-header.js';

const EMPTY = Buffer.alloc(0);
/** A load-balancing endpoint's worker names itself in this answer header (TargetResponse.workerId). */
const NO_CLOCK = (): number => 0;

/** A server-sent event stream being read: complete events and their arrival times, and the unfinished tail. */
class SseReader {
  readonly events: string[] = [];
  readonly atMs: number[] = [];
  private tail = '';
  private readonly decoder = new TextDecoder();

  /** `chunk` arrived at `nowMs`: every event it completes is stamped `nowMs`. */
  add(chunk: Buffer, nowMs: number): void {
    const text = this.tail + this.decoder.decode(chunk, { stream: true });
    const end = lastBlockEnd(text);
    if (end < 0) {
      this.tail = text;
      return;
    }
    this.take(text.slice(0, end), nowMs);
    this.tail = text.slice(end);
  }

  /** The stream ended at `nowMs`: a last block without its blank line counts too. */
  finish(nowMs: number): void {
    const rest = this.tail + this.decoder.decode();
    this.tail = '';
    if (rest.trim()) this.take(rest, nowMs);
  }

  private take(blocks: string, nowMs: number): void {
    for (const data of parseSse(blocks)) {
      this.events.push(data);
      this.atMs.push(nowMs);
    }
  }
}

/** The index just past the last blank line (event boundary) in `text`; -1: none. */
function lastBlockEnd(text: string): number {
  const lf = text.lastIndexOf('\n\n');
  const crlf = text.lastIndexOf('\r\n\r\n');
  return Math.max(lf < 0 ? -1 : lf + 2, crlf < 0 ? -1 : crlf + 4);
}

export class HttpExchange implements Dispatcher.DispatchHandler {
  private status = 0;
  private workerId: string | undefined = undefined;
  /** The event stream of an SSE answer (content type text/event-stream), read as it comes. */
  private events: SseReader | undefined = undefined;
  /** The body: the first chunk, then the rest (most answers come in one chunk). */
  private first: Buffer = EMPTY;
  private rest: Buffer[] | undefined = undefined;
  private abort: ((err?: Error) => void) | undefined = undefined;
  finished = false;
  /** Links of the target's list of open requests (deadline sweep). */
  prev: HttpExchange | undefined = undefined;
  next: HttpExchange | undefined = undefined;
  /** The owner's callback for this request (lets the owner share one `done` among requests). */
  cb: ((res: TargetResponse) => void) | undefined = undefined;
  /** The list of open requests this one is in (the HTTP target's deadline lanes). */
  lane: unknown = undefined;
  /** Called once undici is done with this handler (it calls nothing after): it may be reused. */
  released: ((x: HttpExchange) => void) | undefined = undefined;

  constructor(
    /** Wall ms (target clock) after which the client gives up. */
    public deadlineMs: number,
    private readonly done: (x: HttpExchange, r: TargetResponse) => void,
    /** The target's clock (ms), to stamp each server-sent event when it arrives. */
    private readonly now: () => number = NO_CLOCK,
  ) {}

  /** Ready for another request (only after `released`). */
  reuse(deadlineMs: number): void {
    this.deadlineMs = deadlineMs;
    this.status = 0;
    this.workerId = undefined;
    this.events = undefined;
    this.first = EMPTY;
    this.rest = undefined;
    this.abort = undefined;
    this.finished = false;
  }

  /** undici calls this just before it writes the request to the socket. */
  onConnect(abort: (err?: Error) => void): void {
    this.abort = abort;
    if (this.finished) abort(new Error('client timeout'));
  }

  onHeaders(statusCode: number, rawHeaders: Buffer[]): boolean {
    this.status = statusCode;
    for (let i = 0; i < rawHeaders.length; i += 2) {
      const k = rawHeaders[i]!;
      if (k.length === 12 && (k[0]! | 0x20) === 0x63 && k.toString('latin1').toLowerCase() === 'content-type') {
        if (rawHeaders[i + 1]!.toString('latin1').includes('text/event-stream')) this.events = new SseReader();
      } else if (k.length === 18 && (k[0]! | 0x20) === 0x78 && k.toString('latin1').toLowerCase() === WORKER_ID_HEADER) {
        this.workerId = rawHeaders[i + 1]!.toString('latin1');
      }
    }
    return true;
  }

  onData(chunk: Buffer): boolean {
    if (this.events !== undefined) this.events.add(chunk, this.now());
    else if (this.first.length === 0) this.first = chunk;
    else (this.rest ??= []).push(chunk);
    return true;
  }

  onComplete(): void {
    const ev = this.events;
    if (ev !== undefined) {
      this.events = undefined;
      ev.finish(this.now());
      this.done(this, this.named({ status: this.status, sse: ev.events, sseAtMs: ev.atMs }));
      this.released?.(this);
      return;
    }
    const text = this.rest === undefined ? this.first.toString('utf8') : Buffer.concat([this.first, ...this.rest]).toString('utf8');
    this.first = EMPTY;
    this.rest = undefined;
    let body: unknown;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      body = text;
    }
    this.done(this, this.named({ status: this.status, body }));
    this.released?.(this);
  }

  /** `r` with the worker that answered, when the answer named one. */
  private named(r: TargetResponse): TargetResponse {
    if (this.workerId !== undefined) r.workerId = this.workerId;
    return r;
  }

  onError(err: Error): void {
    this.done(this, { status: 0, error: err.message, ...this.arrived() });
    this.released?.(this);
  }

  /** The client timeout: answer `timedOut` now and drop the request. */
  timeOut(): void {
    this.done(this, { status: 0, timedOut: true, ...this.arrived() });
    this.abort?.(new Error('client timeout'));
  }

  /** The events of a stream that broke, if any came: `sse` and `sseAtMs`. */
  private arrived(): Pick<TargetResponse, 'sse' | 'sseAtMs'> | undefined {
    const ev = this.events;
    this.events = undefined;
    return ev !== undefined && ev.events.length > 0 ? { sse: ev.events, sseAtMs: ev.atMs } : undefined;
  }
}

export function parseSse(text: string): string[] {
  const out: string[] = [];
  for (const block of text.split(/\r?\n\r?\n/)) {
    const data = block
      .split(/\r?\n/)
      .filter((l) => l.startsWith('data:'))
      .map((l) => l.slice(5).trimStart())
      .join('\n');
    if (data) out.push(data);
  }
  return out;
}
