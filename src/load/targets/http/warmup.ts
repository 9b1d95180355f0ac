/**
 * Warms the HTTP send path before a run's clock starts. V8 optimises code only after it has run
 * for a while, and a fresh process sent its first arrivals up to 100–200 ms late (a backlog while
 * the code was unoptimised, at 8 000/s; docs/performance.md). So before an HTTP run, requests
 * (GET and POST with a JSON body, alternately) go through an `HttpTarget` of their own to a stub
 * server on 127.0.0.1 in this process: the same code as the run's sends, none of it reaching the
 * run's target or its report. Best effort: a stub that cannot listen skips it.
 *
 * How many: what the run's peak rate sends in WARMUP_SECONDS, at most WARMUP_REQUESTS
 * (`warmUpRequestsFor`). Cold code only matters where it cannot keep up: at 10 000/s the whole
 * warm-up, at 100/s two requests (the full warm-up costs ~0.5 s of CPU, a third of a short
 * low-rate run's). Warm-ups add up within a process: a later run warms only what earlier ones
 * did not.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Target, TargetRequest } from '../target.js';

/** Most requests of a warm-up (~0.3-0.4 s here). */
export const WARMUP_REQUESTS = 2000;
/** A run's warm-up sends what its peak rate sends in this long (s), at most WARMUP_REQUESTS. */
export const WARMUP_SECONDS = 0.2;
/** Requests in flight at once during the warm-up (and the warm-up target's connections). */
export const WARMUP_PARALLEL = 16;

const BODY = '{"id":"warm-up","status":"IN_QUEUE"}';

/** Requests of the warm-up of a run whose arrivals peak at `peakPerSec`. */
export function warmUpRequestsFor(peakPerSec: number): number {
  return Math.min(WARMUP_REQUESTS, Math.ceil(peakPerSec * WARMUP_SECONDS));
}

/** Requests this process has warmed up with so far (after the warm-ups asked for before). */
let warmed: Promise<number> = Promise.resolve(0);

/**
 * Warms the send path with `requests` in all for this process (after the warm-ups asked for
 * before; nothing when they sent as many); resolves with the requests the process's warm-ups
 * sent in all (a warm-up that could not run counts none). `targetFor(url)` makes a target like
 * the run's for base URL `url`.
 */
export function warmUpHttp(targetFor: (url: string) => Target & { close(): Promise<void> }, requests = WARMUP_REQUESTS): Promise<number> {
  warmed = warmed.then((done) =>
    done >= requests
      ? done
      : run(targetFor, requests - done).then(
          (n) => done + n,
          () => done,
        ),
  );
  return warmed;
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
        const req: TargetRequest =
          sent++ % 2 === 0
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
