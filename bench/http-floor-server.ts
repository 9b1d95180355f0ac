/**
 * The floor for `http-serve`: a bare node:http server that reads the body, parses the same JSON
 * and answers a JSON body of the same size as `serve` would. Run by http-serve.ts in its own
 * process: `node dist/bench/http-floor-server.js --serve RUN_BYTES STATUS_BYTES`; it prints its
 * port on the first line. Run alone (as `npm run bench` does) it only says what it is; imported
 * (http-handler-cpu), it does nothing.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A JSON object of exactly `bytes` bytes: `{"id":"xxx…","status":"S"}`. */
export function bodyOfSize(bytes: number, status: string): string {
  const bare = JSON.stringify({ id: '', status });
  return JSON.stringify({ id: 'x'.repeat(Math.max(0, bytes - bare.length)), status });
}

/**
 * The floor's request handler: parses a JSON body if there is one and answers POST with a
 * `runBytes`-byte body, anything else with a `statusBytes`-byte one. Written the way serve reads
 * and answers (one chunk taken as is, headers as a flat array), so that the difference between
 * the two is serve's own work, not a clumsier floor.
 */
export function floorHandler(runBytes: number, statusBytes: number): (req: IncomingMessage, res: ServerResponse) => void {
  const run = bodyOfSize(runBytes, 'IN_QUEUE');
  const status = bodyOfSize(statusBytes, 'COMPLETED');
  return (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (chunks.length > 0) JSON.parse((chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)).toString('utf8'));
      const text = req.method === 'POST' ? run : status;
      res.writeHead(200, ['content-type', 'application/json; charset=utf-8', 'content-length', String(Buffer.byteLength(text))]);
      res.end(text);
    });
  };
}

const isMain = process.argv[1]?.endsWith('http-floor-server.js') === true;
if (isMain && process.argv[2] !== '--serve') {
  console.log('(helper of http-serve: the bare node:http floor server; nothing to measure alone)');
} else if (isMain) {
  const server = createServer(floorHandler(Number(process.argv[3]), Number(process.argv[4])));
  server.listen(0, '127.0.0.1', () => console.log(String((server.address() as AddressInfo).port)));
  process.on('SIGTERM', () => server.close(() => process.exit(0)));
}
