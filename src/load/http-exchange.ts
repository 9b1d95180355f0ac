/**
 * One request/answer over undici's low-level `dispatch` (no promise chain, no stream object, no
 * AbortController or timer per request: the HTTP target sweeps deadlines in one interval). The
 * answer is parsed as JSON, or as server-sent events when the content type says so.
 */
import type { Dispatcher } from 'undici';
import type { TargetResponse } from './target.js';

export class Exchange implements Dispatcher.DispatchHandler {
  private status = 0;
  private sse = false;
  private readonly chunks: Buffer[] = [];
  private controller: Dispatcher.DispatchController | undefined;
  finished = false;

  constructor(
    /** Wall ms (target clock) after which the client gives up. */
    readonly deadlineMs: number,
    private readonly done: (x: Exchange, r: TargetResponse) => void,
  ) {}

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.controller = controller;
    if (this.finished) controller.abort(new Error('client timeout'));
  }

  onResponseStart(_c: Dispatcher.DispatchController, statusCode: number, headers: Record<string, string | string[] | undefined>): void {
    this.status = statusCode;
    const ct = headers['content-type'];
    this.sse = typeof ct === 'string' && ct.includes('text/event-stream');
  }

  onResponseData(_c: Dispatcher.DispatchController, chunk: Buffer): void {
    this.chunks.push(chunk);
  }

  onResponseEnd(): void {
    const text = this.chunks.length === 1 ? this.chunks[0]!.toString('utf8') : Buffer.concat(this.chunks).toString('utf8');
    if (this.sse) return this.done(this, { status: this.status, sse: parseSse(text) });
    let body: unknown;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      body = text;
    }
    this.done(this, { status: this.status, body });
  }

  onResponseError(_c: Dispatcher.DispatchController, err: Error): void {
    this.done(this, { status: 0, error: err.message });
  }

  /** The client timeout: answer `timedOut` now and drop the request. */
  timeOut(): void {
    this.done(this, { status: 0, timedOut: true });
    this.controller?.abort(new Error('client timeout'));
  }
}

export function parseSse(text: string): string[] {
  const out: string[] = [];
  for (const block of text.split(/\r?\n\r?\n/)) {
    const data = block.split(/\r?\n/).filter((l) => l.startsWith('data:')).map((l) => l.slice(5).trimStart()).join('\n');
    if (data) out.push(data);
  }
  return out;
}
