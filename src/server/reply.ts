/**
 * Writes an `ApiResponse` to a node response: JSON, or server-sent events (`data: …\n\n` each)
 * for `sse`. A response whose client has gone is dropped silently.
 */
import type { ServerResponse } from 'node:http';
import { QueuedAnswer, type ApiResponse } from '../api/types.js';
import { StatusBody } from '../sim/job-body.js';
import { statusJson } from './status-json.js';

const JSON_TYPE = 'application/json; charset=utf-8';

/** Writes `r`; `close` adds `Connection: close` (the request body was not read to its end). */
export function reply(res: ServerResponse, r: ApiResponse, close = false): void {
  if (res.writableEnded || res.destroyed) return;
  if (r.sse) {
    let text = '';
    for (const d of r.sse) text += `data: ${d}\n\n`;
    res.writeHead(r.status, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      'content-length': Buffer.byteLength(text),
      ...(close ? { connection: 'close' } : {}),
    });
    res.end(text);
    return;
  }
  let text: string;
  try {
    // Ids are made of [0-9a-z-]: nothing in them needs escaping in JSON.
    const b = r.body;
    text = b instanceof QueuedAnswer ? `{"id":"${b.id}","status":"IN_QUEUE"}`
      : b instanceof StatusBody ? statusJson(b)
      : b === undefined ? '' : JSON.stringify(b);
  } catch (e) {
    // Never leave a client hanging on a body that cannot be serialised (the core answered it).
    text = JSON.stringify({ error: `response not serialisable: ${(e as Error).message}`, code: 'SRV_ERR_INTERNAL' });
    r = { status: 500 };
  }
  // Header arrays skip node's per-key object walk; this is the hot path of every request.
  const headers = ['content-type', JSON_TYPE, 'content-length', String(Buffer.byteLength(text))];
  if (close) headers.push('connection', 'close');
  if (r.headers) for (const [k, v] of Object.entries(r.headers)) headers.push(k, v);
  res.writeHead(r.status, headers);
  res.end(text);
}

/** Prometheus text or any preformatted body. */
export function replyText(res: ServerResponse, status: number, contentType: string, text: string): void {
  if (res.writableEnded || res.destroyed) return;
  res.writeHead(status, { 'content-type': contentType, 'content-length': Buffer.byteLength(text) });
  res.end(text);
}
