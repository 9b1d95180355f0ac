/**
 * Warms the HTTP send path before a run's clock starts. V8 optimises code only after it has run
 * for a while, and a fresh process sent its first arrivals up to 100–200 ms late (a backlog while
 * the code was unoptimised, at 8 000/s; docs/performance.md). So before the first HTTP run of a
 * process, WARMUP_REQUESTS requests (GET and POST with a JSON body, alternately) go through an
 * `HttpTarget` of their own to a stub server on 127.0.0.1 in this process: the same code as the
 * run's sends, none of it reaching the run's target or its report. Best effort: a stub that cannot
 * listen skips it. Later runs in the same process find the code warm and skip it.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Target, TargetRequest } from '../target.js';

/** Requests of the warm-up (~0.3-0.4 s here). */
export const WARMUP_REQUESTS = 2000;
/** Requests in flight at once during the warm-up (and the warm-up target's connections). */
export const WARMUP_PARALLEL = 16;

const BODY = '{"id":"warm-up","status":"IN_QUEUE"}';

let warmed: Promise<number> | undefined;

/**
 * Warms the send path once per process (later calls wait for the first); resolves with the
 * number of requests the process's warm-up sent (0 if it could not run). `targetFor(url)` makes
 * a target like the run's for base URL `url`.
 */
export function warmUpHttp(targetFor: (url: string) => Target & { close(): Promise<void> }, requests = WARMUP_REQUESTS): Promise<number> {
  return (warmed ??= run(targetFor, requests).catch(() => 0));
}

async function run(targetFor: (url: string) => Target & { close(): Promise<void> }, requests: number): Promise<number> {
  const stub = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, ['content-type', 'application/json', 'content-length', String(BODY.length)]);
      res.end(BODY);
    });
  });
  await new Promise<void>((resolve, reject) => {
    stub.once('error', reject);
    stub.listen(0, '127.0.0.1', () => resolve());
  });
  const url = `http://127.0.0.1:${(stub.address() as AddressInfo).port}/v2`;
  const target = targetFor(url);
  try {
    // The stub answers at once; a warm-up that stalls anyway gives up rather than hold the run.
    let giveUp: NodeJS.Timeout | undefined;
    const stalled = new Promise<void>((resolve) => (giveUp = setTimeout(resolve, 5000)));
    const loop = new Promise<void>((resolve) => {
      let sent = 0;
      let done = 0;
      const one = (): void => {
        const req: TargetRequest = sent++ % 2 === 0
          ? { op: 'health', method: 'GET', path: '/health', timeoutMs: 5000 }
          : { op: 'run', method: 'POST', path: '/run', body: { input: { warmUp: sent } }, timeoutMs: 5000 };
        target.send(req, () => {
          if (++done === requests) resolve();
          else if (sent < requests) one();
        });
      };
      for (let i = 0; i < Math.min(WARMUP_PARALLEL, requests); i++) one();
    });
    await Promise.race([loop, stalled]);
    clearTimeout(giveUp);
  } finally {
    await target.close();
    await close(stub);
  }
  return requests;
}

function close(s: Server): Promise<void> {
  s.closeAllConnections();
  return new Promise((resolve) => s.close(() => resolve()));
}
