/**
 * Lingering close (as nginx does it): a request answered before its body was read to the end
 * (401, 404, 413, 503 …) gets `Connection: close`, and the rest of its body is read and thrown
 * away while the answer goes out, for a bounded time and byte count. Closing at once instead
 * would leave unread bytes in the kernel: the close then sends a reset, and a client still
 * writing its body sees ECONNRESET or EPIPE instead of the answer.
 */
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';

export interface LingerBounds {
  /** Longest the connection stays open after the answer starts, ms. */
  lingerMs: number;
  /** Most body bytes thrown away before the connection is closed regardless. */
  lingerBytes: number;
}

/** Call before writing the answer (with `Connection: close`) to a request whose body is unread. */
export function lingerAfterAnswer(req: IncomingMessage, bounds: LingerBounds): void {
  const socket = req.socket as Socket & { destroySoon(): void };
  if (req.complete || socket.destroyed) return; // nothing left to read: node's own close is right
  let thrownAway = 0;
  const close = () => {
    clearTimeout(timer);
    socket.destroy();
  };
  const timer = setTimeout(close, bounds.lingerMs);
  timer.unref();
  socket.once('close', () => clearTimeout(timer));
  // Throw the body away as it comes (node's parser keeps framing it; nothing is kept).
  req.removeAllListeners('data');
  req.on('data', (c: Buffer) => {
    thrownAway += c.length;
    if (thrownAway > bounds.lingerBytes) close();
  });
  req.resume();
  // node closes an answered `Connection: close` socket with `destroySoon` once the answer is
  // written: end our side only, and close when the body has been read to its end.
  const closeWhenSent = () => {
    if (socket.writableFinished) close();
    else socket.once('finish', close);
  };
  socket.destroySoon = () => {
    if (socket.writable) socket.end();
    if (req.complete) closeWhenSent();
    else req.once('end', closeWhenSent);
  };
}
