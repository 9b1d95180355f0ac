/**
 * The HTTP target: a `loadlab serve` instance or a real deployment, through one undici Pool with
 * keep-alive. Arrivals run in wall time on a local event queue pumped by timers (setImmediate
 * when the next event is under 2 ms away, so the send lag stays below a millisecond). A real
 * deployment does not say which limit a 429 hit: causes are inferred (see cause-inference.ts).
 */
import { Pool } from 'undici';
import { Scheduler } from '../sim/scheduler.js';
import type { Scenario } from './scenario-schema.js';
import type { EndpointProbe, Target, TargetRequest, TargetResponse } from './target.js';

export interface HttpTargetOptions {
  /** Base URL up to `/v2` (added when missing), e.g. `http://127.0.0.1:8080/v2`. */
  url: string;
  apiKey: string;
  endpointId: string;
  /** Sockets kept open (default 64). */
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
  private timer: NodeJS.Timeout | NodeJS.Immediate | undefined;
  private wake: (() => void) | undefined;
  inFlight = 0;

  constructor(readonly url: string, opts: HttpTargetOptions) {
    const { origin, prefix } = splitBase(opts.url);
    this.pool = new Pool(origin, { connections: opts.connections ?? 64, pipelining: 1, keepAliveTimeout: 30_000 });
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
    const ac = new AbortController();
    let finished = false;
    const finish = (r: TargetResponse) => {
      if (finished) return;
      finished = true;
      clearTimeout(timeout);
      this.inFlight--;
      done(r);
      this.wake?.();
    };
    const timeout = setTimeout(() => {
      ac.abort();
      finish({ status: 0, timedOut: true });
    }, req.timeoutMs);
    this.inFlight++;
    this.pool
      .request({ method: req.method, path: this.prefix + req.path + qs, headers: this.headers, body: req.body === undefined ? undefined : JSON.stringify(req.body), signal: ac.signal })
      .then(async (res) => {
        const text = await res.body.text();
        const ct = String(res.headers['content-type'] ?? '');
        if (ct.includes('text/event-stream')) return finish({ status: res.statusCode, sse: parseSse(text) });
        let body: unknown;
        try {
          body = text ? JSON.parse(text) : undefined;
        } catch {
          body = text;
        }
        finish({ status: res.statusCode, body });
      })
      .catch((e: Error) => finish({ status: 0, error: e.message }));
  }

  probe(): EndpointProbe | undefined {
    return undefined;
  }

  /** Runs due events, then sleeps until the next one (or a wake-up: a new event, an answer). */
  drive(stop: () => boolean, hardEndMs: number, tick: () => void): Promise<void> {
    return new Promise((resolve) => {
      const ticker = setInterval(tick, 250);
      const pump = () => {
        this.timer = undefined;
        const now = this.now();
        while ((this.sched.peekMs() ?? Infinity) <= now) this.sched.step();
        if (stop() || this.now() >= hardEndMs) {
          clearInterval(ticker);
          this.wake = undefined;
          resolve();
          return;
        }
        arm();
      };
      const arm = () => {
        if (this.timer) return;
        const next = Math.min(this.sched.peekMs() ?? Infinity, hardEndMs);
        const delay = next - this.now();
        this.timer = delay < 2 ? setImmediate(pump) : setTimeout(pump, Math.min(delay - 1.5, 1000));
      };
      // A new event or an answer may end the run or need an earlier wake-up.
      this.wake = () => {
        if (this.timer && 'hasRef' in this.timer && (this.sched.peekMs() ?? Infinity) - this.now() < 2) {
          clearTimeout(this.timer as NodeJS.Timeout);
          this.timer = undefined;
        }
        arm();
      };
      pump();
    });
  }

  async close(): Promise<void> {
    await this.pool.destroy();
  }
}

export function parseSse(text: string): string[] {
  const out: string[] = [];
  for (const block of text.split(/\r?\n\r?\n/)) {
    const data = block.split(/\r?\n/).filter((l) => l.startsWith('data:')).map((l) => l.slice(5).trimStart()).join('\n');
    if (data) out.push(data);
  }
  return out;
}

/** The HTTP target for `loadlab run --target`; a loopback `serve` reports 429 causes itself. */
export function httpTargetFor(sc: Scenario, a: { target?: string; 'api-key'?: string; endpoint?: string }): () => HttpTarget {
  const url = a.target!;
  const apiKey = a['api-key'] ?? process.env.RUNPOD_API_KEY ?? (isLoopback(url) ? 'loadlab' : '');
  if (!apiKey) throw new Error('an API key is needed for a non-loopback target: --api-key or RUNPOD_API_KEY');
  return () => new HttpTarget(url, { url, apiKey, endpointId: a.endpoint ?? sc.endpoint.id, causesReported: isLoopback(url) });
}
