/**
 * Reads a request body up to a byte limit. A declared `Content-Length` over the limit is refused
 * before a byte is read; a chunked body is counted as it arrives and reading stops at the first
 * chunk past the limit. Nothing beyond `maxBytes` (plus one socket chunk) is ever held in memory.
 */
import type { IncomingMessage } from 'node:http';

export type Body =
  | { kind: 'ok'; text: string | undefined; bytes: number }
  /** `bytes`: the declared length, or what was counted when reading stopped. */
  | { kind: 'too-large'; bytes: number }
  | { kind: 'aborted' };

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
  const chunks: Buffer[] = [];
  let bytes = 0;
  let finished = false;
  const finish = (b: Body) => {
    if (finished) return;
    finished = true;
    done(b);
  };
  const onData = (c: Buffer) => {
    if (finished) return;
    bytes += c.length;
    if (bytes > maxBytes) {
      chunks.length = 0;
      req.off('data', onData);
      req.pause(); // stop pulling from the socket; the connection is closed after the answer
      finish({ kind: 'too-large', bytes });
      return;
    }
    chunks.push(c);
  };
  const onEnd = () => finish({ kind: 'ok', text: chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks).toString('utf8'), bytes });
  // Since node 16 an aborted request emits 'error' (ECONNRESET); 'aborted' is deprecated.
  const onAbort = () => finish({ kind: 'aborted' });
  req.on('data', onData);
  req.on('end', onEnd);
  req.on('error', onAbort);
}
