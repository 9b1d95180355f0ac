/**
 * undici's own ceilings for bench/runner-http.ts, against the same server and with no runner:
 * a closed loop on a bare Pool, and an open loop at a fixed rate. What the HTTP generator can
 * reach at best, as long as it sends through undici.
 */
import { Pool, type Dispatcher } from 'undici';
import { Connector } from '../src/load/targets/http/connector.js';
import { pumpOpen } from './open-pump.js';

/**
 * undici's own ceiling: a closed loop on a bare Pool against the same server, `connections`
 * requests in flight, one handler object per connection reused (nothing parsed, no runner, no
 * clock); answers per second over `seconds`.
 */
export function undiciClosed(url: string, connections: number, seconds: number): Promise<number> {
  const pool = new Pool(url, { connections, pipelining: 1, keepAliveTimeout: 30_000, headersTimeout: 0, bodyTimeout: 0 });
  const opts: Dispatcher.DispatchOptions = { method: 'GET', path: '/v2/ep/health', headers: { authorization: 'Bearer k' } };
  let answered = 0;
  let stopped = false;
  let failed: Error | undefined;
  const loop: Dispatcher.DispatchHandler = {
    onConnect: () => {},
    onHeaders: () => true,
    onData: () => true,
    onComplete: () => {
      answered++;
      if (!stopped) pool.dispatch(opts, loop);
    },
    onError: (err) => void (stopped || (failed ??= err)), // after the stop: the requests destroy() ends
  };
  const t0 = performance.now();
  for (let i = 0; i < connections; i++) pool.dispatch(opts, loop);
  return new Promise((resolve, reject) =>
    setTimeout(() => {
      stopped = true;
      const rate = Math.round(answered / ((performance.now() - t0) / 1000));
      void pool.destroy().then(() => (failed ? reject(failed) : resolve(rate)));
    }, seconds * 1000),
  );
}

/**
 * undici's own ceiling for an open model: arrivals at a fixed rate on a bare Pool (the
 * generator's connections, opened before the clock starts through the same connector), sent the
 * way the HTTP target sends them (setImmediate passes, a pass that sends nothing waiting on the
 * clock for the next arrival), no runner, no parsing, handlers reused. The p99 of its send lag
 * (intended time to undici's write) is what undici and this machine allow the generator at that
 * rate: an open model pays what a closed loop at saturation does not (a keep-alive timer and a
 * deferred write per request, a sleeping server woken for each request, answers read one by one).
 */
export async function undiciOpen(url: string, ratePerSec: number, seconds: number, connections: number): Promise<{ p99LagMs: number; ok: boolean }> {
  const connector = new Connector(url);
  await connector.open(connections);
  const pool = new Pool(url, { connections, pipelining: 1, keepAliveTimeout: 30_000, headersTimeout: 0, bodyTimeout: 0, connect: connector.connect });
  const opts: Dispatcher.DispatchOptions = { method: 'GET', path: '/v2/ep/health', headers: { authorization: 'Bearer k' } };
  const n = Math.round(ratePerSec * seconds);
  const gap = 1000 / ratePerSec;
  const lags = new Float64Array(n).fill(Infinity);
  let answered = 0;
  let failed: Error | undefined;
  let t0 = 0;
  const free: Handler[] = [];
  class Handler implements Dispatcher.DispatchHandler {
    i = 0;
    onConnect(): void {
      lags[this.i] = performance.now() - t0 - this.i * gap;
    }
    onHeaders(): boolean {
      return true;
    }
    onData(): boolean {
      return true;
    }
    onComplete(): void {
      answered++;
      free.push(this);
    }
    onError(err: Error): void {
      failed ??= err;
    }
  }
  const send = (i: number): void => {
    const h = free.pop() ?? new Handler();
    h.i = i;
    pool.dispatch(opts, h);
  };
  t0 = performance.now();
  await pumpOpen(n, gap, t0, send);
  for (let waited = 0; answered < n && waited < 5000 && !failed; waited += 10) await new Promise((r) => setTimeout(r, 10));
  await pool.destroy();
  connector.close();
  const sorted = lags.sort();
  const p99 = sorted[Math.floor(n * 0.99)]!;
  return { p99LagMs: +p99.toFixed(3), ok: p99 < 1 && answered === n && !failed };
}

if (process.argv[1]?.endsWith('undici-ceiling.js') === true) console.log("(helper of runner-http: undici's own ceilings; nothing to measure alone)");
