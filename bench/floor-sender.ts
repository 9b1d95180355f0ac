/**
 * The floor of a Node sender, for generator-vs-peers.ts: the least a Node process can do to send
 * GET `/v2/ep/health` at a fixed rate, with nothing recorded and the coarsest pacing that meets
 * the lateness targets. Each wake-up sends every arrival that is due, then sleeps on a timer
 * (whole ms, so libuv's timer does not spin) until the next one. Two transports:
 *   - `undici`: one undici Pool (the transport of loadlab's HTTP target), requests through
 *     `dispatch` with a handler that keeps nothing;
 *   - `net`: keep-alive `net.Socket`s opened before the clock starts, each request a string
 *     written on a free socket, each answer framed by its content-length (not an HTTP client).
 * What loadlab's generator spends above these is its own; what these spend above a Go tool
 * such as hey is Node's (docs/performance.md, "generator-vs-peers").
 *
 *   node dist/bench/floor-sender.js undici|net ORIGIN RATE SECONDS [CONNECTIONS=50]
 */
import { connect, type Socket } from 'node:net';
import { Pool, type Dispatcher } from 'undici';

const PATH = '/v2/ep/health';

/** Sends `n` arrivals `gapMs` apart from now; `send` returns false when no connection is free. */
function pace(n: number, gapMs: number, send: () => boolean, done: () => void): void {
  const t0 = performance.now();
  let sent = 0;
  const tick = (): void => {
    const now = performance.now() - t0;
    while (sent < n && sent * gapMs <= now && send()) sent++;
    if (sent < n) setTimeout(tick, Math.max(1, Math.ceil(sent * gapMs - (performance.now() - t0))));
    else done();
  };
  tick();
}

function viaUndici(origin: string, rate: number, seconds: number, connections: number): void {
  const pool = new Pool(origin, { connections, pipelining: 1 });
  const n = rate * seconds;
  let answered = 0;
  let allSent = false;
  const end = (): void => {
    if (allSent && answered === n) void pool.close();
  };
  const handler: Dispatcher.DispatchHandler = {
    onConnect: () => undefined,
    onHeaders: () => true,
    onData: () => true,
    onComplete: () => (answered++, end()),
    onError: () => (answered++, end()),
  };
  const req: Dispatcher.DispatchOptions = { method: 'GET', path: PATH, headers: { authorization: 'Bearer floor' } };
  pace(
    n,
    1000 / rate,
    () => pool.dispatch(req, handler) || true,
    () => ((allSent = true), end()),
  );
}

async function viaNet(origin: string, rate: number, seconds: number, connections: number): Promise<void> {
  const u = new URL(origin);
  const request = `GET ${PATH} HTTP/1.1\r\nhost: ${u.host}\r\nauthorization: Bearer floor\r\n\r\n`;
  const sockets = await Promise.all(
    Array.from(
      { length: connections },
      () =>
        new Promise<Socket>((resolve, reject) => {
          const s = connect(Number(u.port), u.hostname, () => resolve(s));
          s.once('error', reject);
          s.setNoDelay(true);
        }),
    ),
  );
  const free: Socket[] = [];
  const n = rate * seconds;
  let answered = 0;
  let allSent = false;
  const end = (): void => {
    if (allSent && answered === n) for (const s of sockets) s.destroy();
  };
  for (const s of sockets) {
    let buf = '';
    s.setEncoding('latin1');
    s.on('data', (d: string) => {
      buf += d;
      for (;;) {
        const head = buf.indexOf('\r\n\r\n');
        if (head < 0) return;
        const len = Number(/content-length: *(\d+)/i.exec(buf.slice(0, head))?.[1] ?? 0);
        if (buf.length < head + 4 + len) return;
        buf = buf.slice(head + 4 + len);
        free.push(s);
        answered++;
        end();
      }
    });
    free.push(s);
  }
  // A request finding no free socket waits for the next wake-up (at the highest rates only).
  pace(
    n,
    1000 / rate,
    () => {
      const s = free.pop();
      return s !== undefined && (s.write(request), true);
    },
    () => ((allSent = true), end()),
  );
}

const [transport, origin, rate, seconds, connections = '50'] = process.argv.slice(2);
if (!origin || !Number(rate) || !Number(seconds) || (transport !== 'undici' && transport !== 'net')) {
  console.error('usage: floor-sender undici|net ORIGIN RATE SECONDS [CONNECTIONS=50]');
  process.exit(2);
}
if (transport === 'undici') viaUndici(origin, Number(rate), Number(seconds), Number(connections));
else await viaNet(origin, Number(rate), Number(seconds), Number(connections));
