/**
 * The judge of generator-vs-peers.ts: a trivial keep-alive node:http server in its own process
 * that answers every request with a small fixed JSON body and records when each one arrived
 * (`performance.now()` of the server process, fractional ms, taken when the request's headers
 * are parsed), in memory. A load tool is judged by what reached this server, not by what it says
 * it sent.
 *
 * The parent talks to it over the IPC channel of `fork`: `reset` drops the recorded times (before
 * each tool), `dump` returns them as a Float64Array (after it). Run alone it only says what it is.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';

const BODY = JSON.stringify({ jobs: { completed: 0, failed: 0, inProgress: 0, inQueue: 0, retried: 0 }, workers: { idle: 0, running: 0 } });
const BODY_LENGTH = String(Buffer.byteLength(BODY));

type Command = { cmd: 'reset' } | { cmd: 'dump' };

function serve(): void {
  // Preallocated and grown by doubling: no garbage per request in the server beyond node:http's.
  let times = new Float64Array(1 << 20);
  let n = 0;
  const server = createServer({ keepAliveTimeout: 60_000 }, (req, res) => {
    if (n === times.length) {
      const grown = new Float64Array(times.length * 2);
      grown.set(times);
      times = grown;
    }
    times[n++] = performance.now();
    req.resume();
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': BODY_LENGTH });
    res.end(BODY);
  });
  process.on('message', (m: Command) => {
    if (m.cmd === 'reset') {
      n = 0;
      process.send!({ ok: true });
    } else if (m.cmd === 'dump') process.send!({ times: times.slice(0, n) });
  });
  server.listen(0, '127.0.0.1', () => process.send!({ port: (server.address() as AddressInfo).port }));
}

export interface ArrivalServer {
  /** Origin, e.g. `http://127.0.0.1:41234`. */
  url: string;
  reset(): Promise<void>;
  /** Arrival times (server ms) since the last reset, in arrival order. */
  dump(): Promise<Float64Array>;
  close(): Promise<void>;
}

function ask<T>(child: ChildProcess, msg: Command | undefined, pick: (m: Record<string, unknown>) => T | undefined): Promise<T> {
  return new Promise((resolve, reject) => {
    const onMessage = (m: Record<string, unknown>): void => {
      const v = pick(m);
      if (v === undefined) return;
      child.off('message', onMessage);
      child.off('exit', onExit);
      resolve(v);
    };
    const onExit = (code: number | null): void => reject(new Error(`arrival server exited (${code})`));
    child.on('message', onMessage);
    child.once('exit', onExit);
    if (msg) child.send(msg);
  });
}

/** Starts the server in its own process (typed arrays cross the IPC channel as such). */
export async function startArrivalServer(): Promise<ArrivalServer> {
  const child = fork(fileURLToPath(import.meta.url), ['--serve'], { serialization: 'advanced', stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const port = await ask(child, undefined, (m) => m.port as number | undefined);
  return {
    url: `http://127.0.0.1:${port}`,
    reset: () => ask(child, { cmd: 'reset' }, (m) => (m.ok === true ? true : undefined)).then(() => undefined),
    dump: () => ask(child, { cmd: 'dump' }, (m) => m.times as Float64Array | undefined),
    close: async () => {
      if (child.exitCode !== null) return;
      const done = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await done;
    },
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (process.argv[2] === '--serve') serve();
  else console.log('(helper of generator-vs-peers: the timestamping server; nothing to measure alone)');
}
