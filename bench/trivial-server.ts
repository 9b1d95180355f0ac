/**
 * The trivial local server of the HTTP generator benches (runner-http.ts, socket-ceiling.ts): a
 * node:http server in its own process that answers every request with a small fixed `/health`
 * body, and autocannon's closed-model rate against it. `node dist/bench/trivial-server.js --serve`
 * prints its port on the first line; run alone (as `npm run bench` does) it only says what it is.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

const HEALTH = JSON.stringify({ jobs: { completed: 0, failed: 0, inProgress: 0, inQueue: 0, retried: 0 }, workers: { idle: 0, running: 0 } });

function serveTrivial(): void {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(HEALTH) });
      res.end(HEALTH);
    });
  });
  server.listen(0, '127.0.0.1', () => console.log(String((server.address() as AddressInfo).port)));
}

/** Starts the server in its own process; `url` is its origin. */
export function startTrivialServer(): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [fileURLToPath(import.meta.url), '--serve'], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve) => child.stdout!.once('data', (d: Buffer) => resolve({ url: `http://127.0.0.1:${d.toString().trim()}`, child })));
}

/** autocannon's closed-model requests/s against the server's `/v2/ep/health`. */
export async function closedModel(url: string, connections: number, seconds: number): Promise<number> {
  const r = await autocannon({ url: `${url}/v2/ep/health`, connections, duration: seconds, headers: { authorization: 'Bearer k' } });
  return Math.round(r.requests.average);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (process.argv[2] === '--serve') serveTrivial();
  else console.log('(helper of runner-http and socket-ceiling: the trivial local server; nothing to measure alone)');
}
