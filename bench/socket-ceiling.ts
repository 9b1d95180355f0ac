/**
 * The socket's own ceiling for bench/runner-http.ts: the open loop of undici-ceiling.ts with no
 * HTTP client at all — keep-alive `net.Socket`s opened before the clock starts, each request a
 * string written on a free one, each answer framed by its content-length (the bench's server
 * always sends one). What an open model costs here below undici (kernel, Node's streams, the
 * event loop), so that a transport of our own can be judged against it. Not an HTTP client:
 * only the bench's server's answers are understood.
 */
import { connect, type Socket } from 'node:net';
import { pumpOpen } from './open-pump.js';

export async function socketOpen(url: string, ratePerSec: number, seconds: number, connections: number): Promise<{ p99LagMs: number; ok: boolean }> {
  const { hostname, port, host } = new URL(url);
  const request = `GET /v2/ep/health HTTP/1.1\r\nhost: ${host}\r\nauthorization: Bearer k\r\n\r\n`;
  const n = Math.round(ratePerSec * seconds);
  const gap = 1000 / ratePerSec;
  const lags = new Float64Array(n).fill(Infinity);
  const free: Socket[] = [];
  const waiting: number[] = [];
  let answered = 0;
  let failed: Error | undefined;
  let t0 = 0;
  const write = (s: Socket, i: number): void => {
    lags[i] = performance.now() - t0 - i * gap;
    s.write(request, 'latin1');
  };
  const idle = (s: Socket): void => {
    const i = waiting.shift();
    if (i === undefined) free.push(s);
    else write(s, i);
  };
  const open = (): Promise<Socket> => new Promise((resolve, reject) => {
    const s = connect(Number(port), hostname, () => resolve(s)).setNoDelay(true);
    s.on('error', (err) => {
      failed ??= err;
      reject(err);
    });
    // One answer at a time per socket: the head up to its blank line, then content-length bytes.
    let head: Buffer | undefined;
    let left = -1;
    s.on('data', (d: Buffer) => {
      if (left < 0) {
        head = head ? Buffer.concat([head, d]) : d;
        const end = head.indexOf('\r\n\r\n');
        if (end < 0) return;
        const m = /\r\ncontent-length: *(\d+)/i.exec(head.toString('latin1', 0, end));
        if (!m) return void (failed ??= new Error('answer without content-length'));
        left = Number(m[1]) - (head.length - end - 4);
        head = undefined;
      } else left -= d.length;
      if (left <= 0) {
        left = -1;
        answered++;
        idle(s);
      }
    });
  });
  const all = await Promise.all(Array.from({ length: connections }, open));
  free.push(...all);
  const send = (i: number): void => {
    const s = free.pop();
    if (s) write(s, i);
    else waiting.push(i);
  };
  t0 = performance.now();
  await pumpOpen(n, gap, t0, send);
  for (let waited = 0; answered < n && waited < 5000 && !failed; waited += 10) await new Promise((r) => setTimeout(r, 10));
  for (const s of all) s.destroy();
  const p99 = lags.sort()[Math.floor(n * 0.99)]!;
  return { p99LagMs: +p99.toFixed(3), ok: p99 < 1 && answered === n && !failed };
}

if (process.argv[1]?.endsWith('socket-ceiling.js') === true) console.log('(helper of runner-http: the socket\'s own open-model ceiling; nothing to measure alone)');
