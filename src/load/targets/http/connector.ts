/**
 * The HTTP target's connector: undici's own, plus sockets opened before the run starts
 * (`preconnect`), handed to the pool first. Opening a socket (and a TLS handshake) costs the
 * first requests of a run otherwise: with a fresh pool at a high rate, most late arrivals of a
 * short run fall in its first half second. Only TCP/TLS connections are opened, no request is
 * sent: the target sees idle keep-alive connections.
 */
import type { Socket } from 'node:net';
import { buildConnector } from 'undici';

export class Connector {
  private readonly base = buildConnector({});
  private readonly ready: Socket[] = [];

  constructor(private readonly origin: string) {}

  /** What the pool calls to open a connection. */
  readonly connect: buildConnector.connector = (opts, cb) => {
    for (let s = this.ready.pop(); s; s = this.ready.pop()) {
      // Not synchronously: undici's client resumes its queue from the callback, which it
      // ignores while still inside the resume that asked for the connection.
      if (!s.destroyed && s.readyState === 'open') return queueMicrotask(() => cb(null, s));
      s.destroy();
    }
    return this.base(opts, cb);
  };

  /** Opens `n` connections for the pool to take first; connections that fail are left out. */
  async open(n: number): Promise<void> {
    const u = new URL(this.origin);
    const opts = { hostname: u.hostname, host: u.host, protocol: u.protocol, port: u.port, servername: undefined, localAddress: null };
    await Promise.all(
      Array.from(
        { length: n },
        () =>
          new Promise<void>((resolve) => {
            this.base(opts as buildConnector.Options, (err, s) => {
              if (!err && s) this.ready.push(s as Socket);
              resolve();
            });
          }),
      ),
    );
  }

  /** Closes the connections the pool never took. */
  close(): void {
    for (const s of this.ready.splice(0)) s.destroy();
  }
}
