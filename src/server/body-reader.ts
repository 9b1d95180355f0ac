/**
 * Reads a request body up to a byte limit, its bytes counted against a server-wide budget while
 * they are held. A declared `Content-Length` over the limit or over the budget is refused before
 * a byte is read; a chunked body is counted as it arrives and reading stops at the first chunk
 * past either. Nothing beyond `maxBytes` (plus one socket chunk) is ever held for one request.
 * A client that goes away mid-body gets no call at all (node emits no `error` on a request
 * without an `error` listener); what was taken for it goes back to the budget.
 */
import type { IncomingMessage } from 'node:http';
import type { ByteBudget } from './byte-budget.js';

export type Body =
  | { kind: 'ok'; text: string | undefined; bytes: number }
  /** `bytes`: the declared length, or what was counted when reading stopped. */
  | { kind: 'too-large'; bytes: number }
  /** The server holds too many body bytes already (the body was not read to its end). */
  | { kind: 'busy'; bytes: number };

const NONE: Body = { kind: 'ok', text: undefined, bytes: 0 };

export function hasBody(req: IncomingMessage): boolean {
  const cl = req.headers['content-length'];
  return (cl !== undefined && cl !== '0') || req.headers['transfer-encoding'] !== undefined;
}

/** The declared `Content-Length` (node's parser has already rejected a malformed one), or 0. */
export function declaredBytes(req: IncomingMessage): number {
  const n = Number(req.headers['content-length'] ?? 0);
  return Number.isFinite(n) ? n : 0;
}

export function readBody(req: IncomingMessage, maxBytes: number, budget: ByteBudget, done: (b: Body) => void): void {
  if (!hasBody(req)) return done(NONE);
  const declared = declaredBytes(req);
  if (declared > maxBytes) return done({ kind: 'too-large', bytes: declared });
  if (declared > 0 && !budget.take(declared)) return done({ kind: 'busy', bytes: declared });
  // Taken from the budget: the declared length up front, a chunked body chunk by chunk.
  let taken = declared;
  const giveBack = () => {
    budget.give(taken);
    taken = 0;
  };
  // Most bodies arrive in one chunk: keep it as is, collect a list only from the second on.
  let first: Buffer | undefined;
  let rest: Buffer[] | undefined;
  let bytes = 0;
  const stop = (b: Body) => {
    first = rest = undefined;
    req.off('data', onData);
    req.off('end', onEnd);
    req.off('close', onClose);
    req.pause(); // stop pulling from the socket; the connection is closed after the answer
    giveBack();
    done(b);
  };
  const onData = (c: Buffer) => {
    bytes += c.length;
    if (bytes > maxBytes) return stop({ kind: 'too-large', bytes });
    if (declared === 0) {
      if (!budget.take(c.length)) return stop({ kind: 'busy', bytes });
      taken += c.length;
    }
    if (first === undefined) first = c;
    else (rest ??= [first]).push(c);
  };
  const onEnd = () => {
    req.off('close', onClose);
    const text = rest ? Buffer.concat(rest).toString('utf8') : first ? first.toString('utf8') : '';
    first = rest = undefined;
    // `done` uses the text at once (it is parsed synchronously): its bytes are free from here.
    giveBack();
    done({ kind: 'ok', text, bytes });
  };
  const onClose = () => {
    first = rest = undefined;
    giveBack();
  };
  req.on('data', onData);
  req.on('end', onEnd);
  req.on('close', onClose);
}
