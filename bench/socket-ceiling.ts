/**
 * The socket's own ceiling for bench/runner-http.ts: the open loop of undici-ceiling.ts with no
 * HTTP client at all — keep-alive `net.Socket`s opened before the clock starts, each request a
 * string written on a free one, each answer framed by its content-length (the bench's server
 * always sends one). What an open model costs here below undici (kernel, Node's streams, the
 * event loop), so that a transport of our own can be judged against it. Not an HTTP client:
 * only the bench's server's answers are understood.
 */
import { connect, type Socket } from 'node:net';
import { loadavg } from 'node:os';
import { pumpOpen } from './open-pump.js';
import { closedModel, startTrivialServer } from './trivial-server.js';
import { recordFigure } from './figures.js';

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
  const open = (): Promise<Socket> =>
    new Promise((resolve, reject) => {
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

/**
 * Run alone: how far the raw socket loop itself goes, as a fraction of autocannon's closed-model
 * maximum against the same trivial server (trivial-server.ts, its own process). Each fraction is
 * run ROUNDS times (3 s each, 256 and 32 connections alternating); a fraction counts as held
 * only if most of its rounds held. The generator of `loadlab run` is built on sockets and
 * does more per request than this loop, so the fractions held here are what this machine
 * allows any transport of ours (issue 4's target: 0.7). On a VM that stalls now and then,
 * whether a 3 s step holds is partly luck: hence rounds (docs/performance.md, "socket-ceiling").
 * Usage: node dist/bench/socket-ceiling.js [rounds=3]
 */
async function scan(rounds: number): Promise<void> {
  const { url, child } = await startTrivialServer();
  const closed = (connections: number): Promise<number> => closedModel(url, connections, 3);
  try {
    await closed(64); // the server's warm-up: its first seconds are slower
    const before = Math.max(await closed(10), await closed(64));
    const rows: string[] = [];
    let heldUpTo = 0;
    let holding = true;
    for (const fraction of [0.4, 0.5, 0.6, 0.7, 0.8]) {
      const rate = Math.round(before * fraction);
      const lags: string[] = [];
      let held = 0;
      for (let r = 0; r < rounds; r++) {
        const x = await socketOpen(url, rate, 3, r % 2 === 0 ? 256 : 32);
        lags.push(x.p99LagMs.toFixed(2));
        if (x.ok) held++;
      }
      const most = held * 2 > rounds;
      holding &&= most;
      if (holding) heldUpTo = fraction;
      rows.push(`| ${fraction.toFixed(1)} | ${rate} | ${lags.join(' / ')} | ${held}/${rounds} |`);
    }
    const after = Math.max(await closed(10), await closed(64));
    console.log(
      `load average ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}; autocannon closed model (best of 10 and 64 connections) ${Math.round(before)} req/s before, ${Math.round(after)} after`,
    );
    console.log('Raw socket open loop, p99 send lag (ms) per round, at fractions of autocannon before the scan:');
    console.log('| fraction | req/s | p99 lag per round, ms | rounds held (< 1 ms, all answered) |');
    console.log('|---|---|---|---|');
    for (const r of rows) console.log(r);
    recordFigure(
      'socket-ceiling',
      'raw socket open loop alone: fraction of autocannon held (p99 < 1 ms in most rounds)',
      heldUpTo > 0 ? `${heldUpTo.toFixed(1)}×` : 'below 0.4×',
    );
    console.log(
      `held (every fraction up to it held in most rounds): ${heldUpTo > 0 ? `${heldUpTo.toFixed(1)} × autocannon` : 'not even 0.4 ×'}; issue 4's target for the generator, which does more per request than this loop: 0.7 ×`,
    );
  } finally {
    child.kill('SIGTERM');
  }
}

if (process.argv[1]?.endsWith('socket-ceiling.js') === true) await scan(Number(process.argv[2] ?? 3));
