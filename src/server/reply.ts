/**
 * Writes an `ApiResponse` to a node response: JSON, or server-sent events (`data: …\n\n` each)
 * for `sse`, or for a `feed` each event as the simulator produces it (the response ends with the
 * feed; a client that goes away first aborts it). A response whose client has gone is dropped silently. A status body with a
 * synthetic output is streamed from one shared buffer (the text is never built); any other
 * large answer waits at the server's `ResponseGate` before it is serialised.
 */
import type { ServerResponse } from 'node:http';
import { QueuedAnswer, type ApiResponse } from '../api/types.js';
import { StatusBody } from '../sim/job-body.js';
import { LARGE_ANSWER_BYTES, type ResponseGate } from './response-gate.js';
import { statusJson, statusJsonAround } from './status-json.js';

const JSON_TYPE = 'application/json; charset=utf-8';
const SSE_TYPE = 'text/event-stream; charset=utf-8';

/**
 * Writes `r`; `close` adds `Connection: close` (the request body was not read to its end).
 * `gate`: the server's bound on response bytes in flight (none: unbounded, for tests).
 */
export function reply(res: ServerResponse, r: ApiResponse, close = false, gate?: ResponseGate, admitted = false): void {
  if (res.writableEnded || res.destroyed) {
    r.feed?.abort();
    return;
  }
  if (r.feed) return writeFeed(res, r, close);
  const around = r.body instanceof StatusBody && !r.sse ? statusJsonAround(r.body) : undefined;
  if (around) return writeSynthetic(res, r, close, around);
  let text: string;
  try {
    text = serialise(r);
  } catch (e) {
    // Never leave a client hanging on a body that cannot be serialised (the core answered it).
    text = JSON.stringify({ error: `response not serialisable: ${(e as Error).message}`, code: 'SRV_ERR_INTERNAL' });
    r = { status: 500 };
  }
  // Header arrays skip node's per-key object walk; this is the hot path of every request.
  const headers = headersOf(r, close);
  if (gate === undefined || text.length < LARGE_ANSWER_BYTES) {
    headers.push('content-length', String(Buffer.byteLength(text)));
    res.writeHead(r.status, headers);
    res.end(text);
    return;
  }
  if (!admitted && !gate.open()) {
    // Serialised again when its turn comes: this copy is garbage now, not held while waiting.
    gate.wait(res, () => reply(res, r, close, gate, true));
    return;
  }
  // Encoded once here (node would copy a string this large into a buffer of its own anyway).
  const bytes = Buffer.from(text, 'utf8');
  gate.hold(res, bytes.length);
  headers.push('content-length', String(bytes.length));
  res.writeHead(r.status, headers);
  res.end(bytes);
}

function serialise(r: ApiResponse): string {
  if (r.sse) {
    let text = '';
    for (const d of r.sse) text += `data: ${d}\n\n`;
    return text;
  }
  // Ids are made of [0-9a-z-]: nothing in them needs escaping in JSON.
  const b = r.body;
  return b instanceof QueuedAnswer
    ? `{"id":"${b.id}","status":"IN_QUEUE"}`
    : b instanceof StatusBody
      ? statusJson(b)
      : b === undefined
        ? ''
        : JSON.stringify(b);
}

function headersOf(r: ApiResponse, close: boolean): string[] {
  const headers = r.sse || r.feed ? ['content-type', SSE_TYPE, 'cache-control', 'no-cache'] : ['content-type', JSON_TYPE];
  if (close) headers.push('connection', 'close');
  if (r.headers) for (const [k, v] of Object.entries(r.headers)) headers.push(k, v);
  return headers;
}

/** A streamed answer: headers now, then each event as it is pushed, written at once. */
function writeFeed(res: ServerResponse, r: ApiResponse, close: boolean): void {
  const feed = r.feed!;
  res.writeHead(r.status, headersOf(r, close));
  res.flushHeaders();
  res.on('close', () => feed.abort());
  feed.listen(
    (d) => void res.write(`data: ${d}\n\n`),
    () => res.end(),
  );
}

/** The letters of every synthetic output, written again and again (never copied per answer). */
const XS = Buffer.alloc(256 * 1024, 'x');

/** `head`, `bytes` letters `x`, `tail`, with backpressure: one answer holds no copy of its output. */
function writeSynthetic(res: ServerResponse, r: ApiResponse, close: boolean, a: { head: string; bytes: number; tail: string }): void {
  const headers = headersOf(r, close);
  headers.push('content-length', String(Buffer.byteLength(a.head) + a.bytes + Buffer.byteLength(a.tail)));
  res.writeHead(r.status, headers);
  res.write(a.head);
  let left = a.bytes;
  const pump = () => {
    while (left > 0) {
      if (res.destroyed) return;
      const n = Math.min(left, XS.length);
      left -= n;
      if (!res.write(n === XS.length ? XS : XS.subarray(0, n))) return void res.once('drain', pump);
    }
    res.end(a.tail);
  };
  pump();
}

/** Prometheus text or any preformatted body. */
export function replyText(res: ServerResponse, status: number, contentType: string, text: string): void {
  if (res.writableEnded || res.destroyed) return;
  res.writeHead(status, { 'content-type': contentType, 'content-length': Buffer.byteLength(text) });
  res.end(text);
}
