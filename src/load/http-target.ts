/**
 * The HTTP target: a `loadlab serve` instance or a real deployment, through one undici Pool with
 * keep-alive. Arrivals run in wall time on a local event queue pumped by timers (setImmediate
 * when the next event is under 2 ms away, so the send lag stays below a millisecond). A real
 * deployment does not say which limit a 429 hit: causes are inferred (see cause-inference.ts).
 */
import { Pool } from 'undici';
import { Exchange, parseSse } from './http-exchange.js';
import { Scheduler } from '../sim/scheduler.js';
import type { Scenario } from './scenario-schema.js';
import type { EndpointProbe, Target, TargetRequest, TargetResponse } from './target.js';

/** Client timeouts are checked this often (wall ms): a timeout fires up to this late. */
const SWEEP_MS = 25;
/**
 * Sockets the HTTP target keeps open by default (`--connections`). Each request in flight holds
 * one (a held runsync or stream for its whole hold); a request finding none free waits inside the
 * client, and that wait counts in its service time.
 */
export const DEFAULT_CONNECTIONS = 256;

export interface HttpTargetOptions {
  /** Base URL up to `/v2` (added when missing), e.g. `http://127.0.0.1:8080/v2`. */
  url: string;
  apiKey: string;
  endpointId: string;
  /** Most sockets open at once (default DEFAULT_CONNECTIONS). */
  connections?: number;
  /** The server reports 429 causes (a `loadlab serve` on loopback). */
  causesReported?: boolean;
}

export function isLoopback(url: string): boolean {
  try {
    const h = new URL(url).hostname;
    return h === 'localhost' || h === '[::1]' || h === '::1' || /^127\./.test(h);
  } catch {
    return false;
  }
}

/** Splits a base URL into origin and `/…/v2` path prefix. */
export function splitBase(url: string): { origin: string; prefix: string } {
  const u = new URL(url);
  let prefix = u.pathname.replace(/\/+$/, '');
  if (!prefix.endsWith('/v2')) prefix += '/v2';
  return { origin: u.origin, prefix };
}

export class HttpTarget implements Target {
  readonly kind: 'http' | 'lockstep' = 'http';
  readonly causesReported: boolean;
  webhookUrl: string | undefined = undefined;
  readonly endpointId: string;
  readonly pool: Pool;
  protected readonly sched = new Scheduler();
  protected readonly prefix: string;
  protected readonly headers: Record<string, string>;
  private readonly t0 = performance.now();
  private wake: (() => void) | undefined;
  inFlight = 0;
  private readonly open = new Set<Exchange>();

  constructor(readonly url: string, opts: HttpTargetOptions) {
    const { origin, prefix } = splitBase(opts.url);
    // undici's own header/body timeouts are off: held answers may take 300 s; the client timeout is ours.
    this.pool = new Pool(origin, { connections: opts.connections ?? DEFAULT_CONNECTIONS, pipelining: 1, keepAliveTimeout: 30_000, headersTimeout: 0, bodyTimeout: 0 });
    this.prefix = `${prefix}/${opts.endpointId}`;
    this.endpointId = opts.endpointId;
    this.causesReported = opts.causesReported ?? false;
    this.headers = { authorization: `Bearer ${opts.apiKey}`, 'content-type': 'application/json' };
  }

  now(): number {
    return performance.now() - this.t0;
  }

  at(atMs: number, fn: () => void): void {
    this.sched.at(atMs, fn);
    this.wake?.();
  }

  send(req: TargetRequest, done: (res: TargetResponse) => void): void {
    const qs = req.query ? `?${new URLSearchParams(req.query).toString()}` : '';
    const x = new Exchange(this.now() + req.timeoutMs, (ex, r) => {
      if (ex.finished) return;
      ex.finished = true;
      this.open.delete(ex);
      this.inFlight--;
      done(r);
      this.wake?.();
    });
    this.inFlight++;
    this.open.add(x);
    this.pool.dispatch({ method: req.method, path: this.prefix + req.path + qs, headers: this.headers, body: req.body === undefined ? null : JSON.stringify(req.body) }, x);
  }

  /** Client timeouts: one sweep over the open requests every SWEEP_MS instead of a timer each. */
  private sweep(): void {
    const now = this.now();
    for (const x of this.open) if (x.deadlineMs <= now) x.timeOut();
  }

  probe(): EndpointProbe | undefined {
    return undefined;
  }

  /**
   * Runs due events, then sleeps until the next one: a setImmediate spin when it is under 2 ms
   * away (timers are too coarse for sub-ms send lag), else one timer 1.5 ms early. A new event or
   * an answer (`wake`) may need an earlier wake-up or end the run.
   */
  drive(stop: () => boolean, hardEndMs: number, tick: () => void): Promise<void> {
    return new Promise((resolve) => {
      let immediate: NodeJS.Immediate | undefined;
      let timeout: NodeJS.Timeout | undefined;
      let timeoutAt = Infinity;
      const ticker = setInterval(tick, 250);
      const sweeper = setInterval(() => this.sweep(), SWEEP_MS);
      const pump = (): void => {
        immediate = undefined;
        if (timeout) clearTimeout(timeout);
        timeout = undefined;
        timeoutAt = Infinity;
        const now = this.now();
        while ((this.sched.peekMs() ?? Infinity) <= now) this.sched.step();
        if (stop() || this.now() >= hardEndMs) {
          clearInterval(ticker);
          clearInterval(sweeper);
          this.wake = undefined;
          resolve();
          return;
        }
        arm(false);
      };
      const arm = (checkStop: boolean): void => {
        if (immediate) return;
        const now = this.now();
        const delay = Math.min(this.sched.peekMs() ?? Infinity, hardEndMs) - now;
        if (delay < 2 || (checkStop && stop())) {
          immediate = setImmediate(pump);
          return;
        }
        const at = now + Math.min(delay - 1.5, 1000);
        if (timeout && timeoutAt <= at) return;
        if (timeout) clearTimeout(timeout);
        timeoutAt = at;
        timeout = setTimeout(pump, at - now);
      };
      this.wake = () => arm(true);
      pump();
    });
  }

  async close(): Promise<void> {
    await this.pool.destroy();
  }
}

export { parseSse };

/** The HTTP target for `loadlab run --target`; a loopback `serve` reports 429 causes itself. */
export function httpTargetFor(sc: Scenario, a: { target?: string; 'api-key'?: string; endpoint?: string; connections?: number }): () => HttpTarget {
  const url = a.target!;
  const apiKey = a['api-key'] ?? process.env.RUNPOD_API_KEY ?? (isLoopback(url) ? 'loadlab' : '');
  if (!apiKey) throw new Error('an API key is needed for a non-loopback target: --api-key or RUNPOD_API_KEY');
  return () => new HttpTarget(url, { url, apiKey, endpointId: a.endpoint ?? sc.endpoint.id, causesReported: isLoopback(url), connections: a.connections });
}
