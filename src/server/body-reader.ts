/**
 * Reads a request body up to a byte limit. A declared `Content-Length` over the limit is refused
 * before a byte is read; a chunked body is counted as it arrives and reading stops at the first
 * chunk past the limit. Nothing beyond `maxBytes` (plus one socket chunk) is ever held in memory.
 * A client that goes away mid-body gets no call at all: node emits no `error` on a request
 * without an `error` listener, and nothing was taken for it yet.
 */
import type { IncomingMessage } from 'node:http';

export type Body =
  | { kind: 'ok'; text: string | undefined; bytes: number }
  /** `bytes`: the declared length, or what was counted when reading stopped. */
  | { kind: 'too-large'; bytes: number };

const NONE: Body = { kind: 'ok', text: undefined, bytes: 0 };

export function hasBody(req: IncomingMessage): boolean {
  const cl = req.headers['content-length'];
  return (cl !== undefined && cl !== '0') || req.headers['transfer-encoding'] !== undefined;
}

export function readBody(req: IncomingMessage, maxBytes: number, done: (b: Body) => void): void {
  if (!hasBody(req)) return done(NONE);
  const declared = Number(req.headers['content-length']);
  // node's parser has already rejected a malformed Content-Length; a valid one over the limit ends here.
  if (declared > maxBytes) return done({ kind: 'too-large', bytes: declared });
  // Most bodies arrive in one chunk: keep it as is, collect a list only from the second on.
  let first: Buffer | undefined;
  let rest: Buffer[] | undefined;
  let bytes = 0;
  const onData = (c: Buffer) => {
    bytes += c.length;
    if (bytes > maxBytes) {
      first = rest = undefined;
      req.off('data', onData);
      req.off('end', onEnd);
      req.pause(); // stop pulling from the socket; the connection is closed after the answer
      done({ kind: 'too-large', bytes });
    } else if (first === undefined) first = c;
    else (rest ??= [first]).push(c);
  };
  const onEnd = () => {
    const text = rest ? Buffer.concat(rest).toString('utf8') : first ? first.toString('utf8') : '';
    done({ kind: 'ok', text, bytes });
  };
  req.on('data', onData);
  req.on('end', onEnd);
}
