/**
 * A raw TCP client for what undici will not send: partial heads, slow bodies, a whole oversized
 * body written in one go. Collects everything the server sends until it closes the connection.
 */
import { connect, type Socket } from 'node:net';

export interface RawAnswer {
  /** 0 when no status line arrived. */
  status: number;
  head: string;
  body: string;
  /** A socket error seen before the answer was complete (e.g. ECONNRESET, EPIPE). */
  error: string | undefined;
  /** Whether a `100 Continue` came first (it is not part of `head`). */
  continued: boolean;
}

/**
 * Opens a connection, lets `send` write to it, and resolves when the server closes it.
 * `endOnAnswer` (default): end our side once a complete answer has arrived, as a client would.
 */
export function rawExchange(port: number, send: (s: Socket) => void, endOnAnswer = true): Promise<RawAnswer> {
  return new Promise((resolve) => {
    const s = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    let error: string | undefined;
    s.on('data', (c: Buffer) => {
      chunks.push(c);
      if (!endOnAnswer) return;
      // A complete final answer (not `100 Continue`): end our side; the server then closes.
      const text = Buffer.concat(chunks)
        .toString('latin1')
        .replace(/^HTTP\/1\.1 100 [^\r]*\r\n\r\n/, '');
      const at = text.indexOf('\r\n\r\n');
      const length = /content-length: (\d+)/i.exec(text.slice(0, at))?.[1];
      if (at >= 0 && length !== undefined && Buffer.byteLength(text.slice(at + 4), 'latin1') >= Number(length) && s.writable) s.end();
    });
    s.on('error', (e: NodeJS.ErrnoException) => {
      error ??= e.code ?? e.message;
    });
    s.on('close', () => {
      const all = Buffer.concat(chunks).toString('latin1');
      const text = all.replace(/^HTTP\/1\.1 100 [^\r]*\r\n\r\n/, '');
      const at = text.indexOf('\r\n\r\n');
      const head = at < 0 ? text : text.slice(0, at);
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0);
      resolve({ status, head, body: at < 0 ? '' : text.slice(at + 4), error, continued: text.length < all.length });
    });
    s.once('connect', () => send(s));
  });
}

/** The JSON error code of an answer, or undefined. */
export function codeOf(a: RawAnswer): string | undefined {
  try {
    return (JSON.parse(a.body) as { code?: string }).code;
  } catch {
    return undefined;
  }
}
