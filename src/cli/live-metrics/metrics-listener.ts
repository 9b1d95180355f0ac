/**
 * The HTTP side of `--metrics-listen`: `GET /metrics` answers the registry's text (its own
 * content type), anything else 404 (405 for another method on /metrics) with a JSON body. It binds
 * only the address given. The server and its sockets do not keep the process alive (`unref`):
 * the run does while it goes on, and `finalScrape` while it waits, so a run that fails never
 * hangs on a Prometheus keep-alive connection.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Registry } from 'prom-client';
import { CliError } from '../exit-codes.js';
import { authority, type ListenAddress } from './listen-address.js';

export interface MetricsListener {
  /** `http://host:port/metrics`, with the port actually bound. */
  readonly url: string;
  /**
   * Resolves once a scrape that began after `ended()` returned true has been answered, after
   * `maxWaitMs`, or when `stop` is aborted, whichever is first.
   */
  finalScrape(maxWaitMs: number, stop?: AbortSignal): Promise<'scraped' | 'timed-out' | 'stopped'>;
  close(): Promise<void>;
}

const JSON_TYPE = 'application/json; charset=utf-8';

function json(res: ServerResponse, status: number, body: object, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': JSON_TYPE, 'content-length': String(Buffer.byteLength(text)), ...headers });
  res.end(text);
}

/** Listens on `at`; in use or not bindable → CliError (exit 2) naming the flag. `ended`: has the run ended? */
export async function listenForMetrics(at: ListenAddress, registry: Registry, ended: () => boolean): Promise<MetricsListener> {
  /** A scrape begun after the end was answered (before `finalScrape` was called, perhaps). */
  let finalAnswered = false;
  let onFinal: (() => void) | undefined;
  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    const path = (req.url ?? '/').split('?')[0];
    if (path !== '/metrics') return json(res, 404, { error: `not found: ${path}; this server answers GET /metrics only` });
    if (req.method !== 'GET' && req.method !== 'HEAD')
      return json(res, 405, { error: `method ${req.method} not allowed on /metrics; use GET` }, { allow: 'GET, HEAD' });
    const final = ended();
    registry.metrics().then(
      (text) => {
        res.writeHead(200, { 'content-type': registry.contentType, 'content-length': String(Buffer.byteLength(text)) });
        res.end(req.method === 'HEAD' ? undefined : text, () => {
          if (!final) return;
          finalAnswered = true;
          onFinal?.();
        });
      },
      (e: unknown) => json(res, 500, { error: `metrics could not be read: ${(e as Error).message}` }),
    );
  };
  const server = createServer(handle);
  server.on('connection', (s) => s.unref());
  await bind(server, at);
  server.unref();
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://${authority(at.host, port)}/metrics`,
    finalScrape: (maxWaitMs, stop) =>
      new Promise((resolve) => {
        if (finalAnswered) return resolve('scraped');
        if (stop?.aborted) return resolve('stopped');
        const done = (how: 'scraped' | 'timed-out' | 'stopped') => {
          clearTimeout(timer);
          stop?.removeEventListener('abort', onStop);
          onFinal = undefined;
          resolve(how);
        };
        const onStop = () => done('stopped');
        // This timer keeps the process alive while it waits (the server does not).
        const timer = setTimeout(() => done('timed-out'), maxWaitMs);
        stop?.addEventListener('abort', onStop);
        onFinal = () => done('scraped');
      }),
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function bind(server: Server, at: ListenAddress): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', (e: NodeJS.ErrnoException) => {
      const where = authority(at.host, at.port);
      reject(
        new CliError(
          e.code === 'EADDRINUSE'
            ? `--metrics-listen: ${where} is in use (another process listens there); choose another port, or :0 for any free one`
            : `--metrics-listen: cannot listen on ${where}: ${e.code ?? e.message}`,
        ),
      );
    });
    server.listen(at.port, at.host, () => resolve());
  });
}
