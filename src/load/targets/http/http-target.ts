/**
 * The HTTP target: a `loadlab serve` instance or a real deployment, through one undici Pool with
 * keep-alive. Arrivals run in wall time on a local event queue (fractional ms, never early),
 * paced by one Node timer: the loop sleeps in poll until the next event, so its CPU follows the
 * rate. Timers count whole ms of the event loop's clock, so an event goes out within about a ms
 * after its time, and the events due within one ms go out in one wake-up (a wake-up per event,
 * kept sub-ms by a second thread and a spin, cost 1.7-1.9× the CPU per request at 4 000-10 000/s:
 * docs/performance.md, "generator-vs-peers"). Due events also run between answers, so a burst of
 * answers read in one pass of the event loop does not hold sends back. A real deployment does not
 * say which limit a 429 hit: causes are inferred (see cause-inference.ts).
 */
import { Pool, type Dispatcher } from 'undici';
import { parseSse, type HttpExchange } from './http-exchange.js';
import { OpenRequests } from './open-requests.js';
import { Connector } from './connector.js';
import { WallQueue } from './wall-queue.js';
import { warmUpHttp, warmUpRequestsFor, WARMUP_PARALLEL, WARMUP_REQUESTS } from './warmup.js';
import { zeroAt } from './start-at.js';
import type { Scenario } from '../../scenario/schema.js';
import type { EndpointProbe, Target, TargetRequest, TargetResponse } from '../target.js';
import { displayUrl, isLoopback } from '../target-url.js';
import type { RandomStream } from '../../../lib/random.js';
import type { DeliveryListener, ReceiverConfig, WebhookRefusals } from '../webhook-receiver.js';
import { receiveOnClock, type HttpWebhookReceiver } from './webhook-receiver.js';
import { UsageError } from '../../usage-error.js';
import { sendLoad } from './send-load.js';
import { balancerUrls } from '../balancer-url.js';
import { WORKER_ID_HEADER } from '../../../contract/worker-id-header.js';

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
  /**
   * A load-balancing endpoint's base URL (balancer-url.ts): requests marked `balancer` go to it +
   * their path, through a pool of their own when its origin is not `url`'s (RunPod:
   * `https://{id}.api.runpod.ai`). Default: `/lb/{endpointId}` beside `url`'s `/v2` (serve's).
   */
  balancer?: string;
  /** The server reports 429 causes (a `loadlab serve` on loopback). */
  causesReported?: boolean;
  /**
   * Connections to open before the clock starts (at most `connections`; default 0: opened as
   * requests need them). No request is sent on them until the run's own.
   */
  preconnect?: number;
  /**
   * Epoch ms of the run's time 0 (`--start-at`): `drive` waits for it after its warm-up
   * (start-at.ts). Default: time 0 is when the warm-up ends.
   */
  startAtMs?: number;
  /** Requests of the warm-up before the clock starts (warmup.ts; default WARMUP_REQUESTS). */
  warmUpRequests?: number;
  /**
   * The webhook receiver, already listening (`--webhook-listen`, `--webhook-url`); default: one
   * on 127.0.0.1 and a free port, opened by `receiveWebhooks`. Closed with the target.
   */
  webhooks?: HttpWebhookReceiver;
}

export { isLoopback };

/** Splits a base URL into origin and `/…/v2` path prefix. */
export function splitBase(url: string): { origin: string; prefix: string } {
  const u = new URL(url);
  let prefix = u.pathname.replace(/\/+$/, '');
  if (!prefix.endsWith('/v2')) prefix += '/v2';
  return { origin: u.origin, prefix };
}

/** What undici is handed for a request: built once per request object (a re-sent poll reuses it). */
type Wire = Dispatcher.DispatchOptions;

export class HttpTarget implements Target {
  readonly kind = 'http' as const;
  readonly clock = 'wall' as const;
  readonly reportUrl: string;
  readonly causesReported: boolean;
  webhookUrl: string | undefined = undefined;
  private receiver: HttpWebhookReceiver | undefined = undefined;
  readonly endpointId: string;
  readonly pool: Pool;
  /** The pool of a load-balancing endpoint's requests: `pool` unless its base has another origin. */
  private readonly lbPool: Pool;
  /** Path of the load-balancing endpoint's base, on `lbPool`'s origin. */
  private readonly lbPrefix: string;
  protected readonly queue = new WallQueue();
  protected readonly prefix: string;
  /** Headers of requests without a body, and of those with a (JSON) body. */
  private readonly bare: Record<string, string>;
  private readonly json: Record<string, string>;
  /** performance.now() at the run's time 0 (moved to the start of `drive`). */
  private t0 = performance.now();
  private readonly connector: Connector;
  private readonly preconnect: number;
  private readonly startAtMs: number | undefined;
  private readonly warmUpRequests: number;
  private wake: (() => void) | undefined;
  /** Set while events run (no nested pump from an answer undici reports during a send). */
  private pumping = false;
  /** After close(): the pool's "destroyed" errors of requests still held are not answers. */
  private closed = false;
  inFlight = 0;
  private readonly open: OpenRequests;

  constructor(
    readonly url: string,
    opts: HttpTargetOptions,
  ) {
    const { origin, prefix } = splitBase(opts.url);
    // undici's own header/body timeouts are off: held answers may take 300 s; the client timeout is ours.
    const connections = opts.connections ?? DEFAULT_CONNECTIONS;
    const lb = opts.balancer === undefined ? undefined : new URL(opts.balancer);
    // The sockets opened ahead (preconnect) are for the pool that carries the traffic.
    const lbApart = lb !== undefined && lb.origin !== origin;
    this.connector = new Connector(lbApart ? lb.origin : origin);
    this.preconnect = Math.min(opts.preconnect ?? 0, connections);
    this.startAtMs = opts.startAtMs;
    this.receiver = opts.webhooks;
    this.warmUpRequests = opts.warmUpRequests ?? WARMUP_REQUESTS;
    const poolOpts = { connections, pipelining: 1, keepAliveTimeout: 30_000, headersTimeout: 0, bodyTimeout: 0 };
    this.pool = new Pool(origin, lbApart ? poolOpts : { ...poolOpts, connect: this.connector.connect });
    this.lbPool = lbApart ? new Pool(lb.origin, { ...poolOpts, connect: this.connector.connect }) : this.pool;
    // Without a base given, serve's `/lb/{id}` beside the URL's `/v2` (a target made for a queue endpoint sends no such request).
    this.lbPrefix = (lb ?? new URL(`${prefix.slice(0, -3)}/lb/${opts.endpointId}`, origin)).pathname.replace(/\/+$/, '');
    this.prefix = `${prefix}/${opts.endpointId}`;
    this.endpointId = opts.endpointId;
    this.reportUrl = displayUrl(url);
    this.causesReported = opts.causesReported ?? false;
    this.open = new OpenRequests(this.finish, () => this.now());
    this.bare = { authorization: `Bearer ${opts.apiKey}` };
    this.json = { ...this.bare, 'content-type': 'application/json' };
  }

  async receiveWebhooks(cfg: ReceiverConfig, rng: RandomStream, onDelivery: DeliveryListener): Promise<void> {
    this.receiver = await receiveOnClock(this, this.receiver, cfg, rng, onDelivery);
    this.webhookUrl = this.receiver.url;
  }

  webhookRefusals(): WebhookRefusals | undefined {
    return this.webhookUrl === undefined ? undefined : { refused: this.receiver!.refused, malformed: this.receiver!.malformed };
  }

  now(): number {
    return performance.now() - this.t0;
  }

  at(atMs: number, fn: () => void): void {
    this.queue.push(atMs, fn);
    if (!this.pumping) this.wake?.();
  }

  send(req: TargetRequest, done: (res: TargetResponse) => void): void {
    let wire = this.wires.get(req);
    if (wire === undefined) this.wires.set(req, (wire = this.wire(req)));
    const x = this.open.open(this.now(), req.timeoutMs);
    x.cb = done;
    this.inFlight++;
    (req.balancer ? this.lbPool : this.pool).dispatch(wire, x);
  }

  /** Each request object's wire form, for re-sends (a poll): kept here, not on the shared request. */
  private readonly wires = new WeakMap<TargetRequest, Wire>();

  private wire(req: TargetRequest): Wire {
    const qs = req.query ? `?${new URLSearchParams(req.query).toString()}` : '';
    const body = req.body === undefined ? null : Buffer.from(JSON.stringify(req.body));
    const headers = body ? this.json : this.bare;
    return {
      method: req.method,
      path: (req.balancer ? this.lbPrefix : this.prefix) + req.path + qs,
      headers: req.workerAffinity === undefined ? headers : { ...headers, [WORKER_ID_HEADER]: req.workerAffinity },
      body,
    };
  }

  /** An answer, a transport error or the client timeout: the first one counts. */
  private readonly finish = (x: HttpExchange, r: TargetResponse): void => {
    if (x.finished || this.closed) return;
    x.finished = true;
    this.open.close(x);
    this.inFlight--;
    const done = x.cb!;
    x.cb = undefined;
    done(r);
    // Sends that fell due while answers were read go now, not after the whole batch of answers.
    if (!this.pumping && this.queue.nextAtMs() <= this.now()) this.runDue();
    this.wake?.();
  };

  /** Runs the events due now; returns how many ran. */
  private runDue(): number {
    this.pumping = true;
    try {
      return this.queue.runDue(this.now());
    } finally {
      this.pumping = false;
    }
  }

  probe(): EndpointProbe | undefined {
    return undefined;
  }

  /**
   * Runs due events, then sleeps on a timer until the next one (an event already due: the next
   * pass of the event loop, where undici also writes what was just sent). A new event or an
   * answer (`wake`) may need an earlier wake-up, or end the run.
   */
  async drive(stop: () => boolean, hardEndMs: number, tick: () => void): Promise<void> {
    // The clock starts once the preconnected sockets are open and the send path is warm (warmup.ts).
    const warm = warmUpHttp((url) => new HttpTarget(url, { url, apiKey: 'warm-up', endpointId: 'ep', connections: WARMUP_PARALLEL }), this.warmUpRequests);
    await Promise.all([this.connector.open(this.preconnect), warm]);
    this.t0 = this.startAtMs === undefined ? performance.now() : await zeroAt(this.startAtMs, stop);
    // Stopped before time 0 (Ctrl-C during the warm-up or the --start-at wait): nothing is sent.
    if (stop()) return;
    return new Promise((resolve) => {
      let timer: NodeJS.Timeout | undefined;
      let immediate: NodeJS.Immediate | undefined;
      /** The time (target clock) the pending wake-up is for; Infinity: none. */
      let wakeAt = Infinity;
      // Each tick also looks at stop(): one that became true while no event is due (Ctrl-C) ends the drive now.
      const ticker = setInterval(() => {
        tick();
        if (stop()) this.wake?.();
      }, 250);
      const sweeper = setInterval(() => this.open.expire(this.now()), SWEEP_MS);
      const unarm = (): void => {
        clearTimeout(timer);
        clearImmediate(immediate);
        timer = immediate = undefined;
        wakeAt = Infinity;
      };
      const pump = (): void => {
        unarm();
        this.runDue();
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
        const now = this.now();
        const at = checkStop && stop() ? now : Math.min(this.queue.nextAtMs(), hardEndMs);
        if (wakeAt <= at) return;
        unarm();
        wakeAt = at;
        if (at <= now) immediate = setImmediate(pump);
        else timer = setTimeout(pump, Math.ceil(at - now));
      };
      this.wake = () => arm(true);
      pump();
    });
  }

  async close(): Promise<void> {
    // Requests still held at the end stay unanswered (the session unfinished), as in-process:
    // not the transport errors that destroying the pool hands them.
    this.closed = true;
    this.connector.close();
    await Promise.all([this.pool.destroy(), this.lbPool === this.pool ? undefined : this.lbPool.destroy(), this.receiver?.close()]);
  }
}

export { parseSse };

/** The HTTP target for `loadlab run --target`; a loopback `serve` reports 429 causes itself. */
export function httpTargetFor(
  sc: Scenario,
  a: { target?: string; 'api-key'?: string; endpoint?: string; connections?: number; startAtMs?: number; webhooks?: HttpWebhookReceiver },
): () => HttpTarget {
  const given = a.target!;
  const endpointId = a.endpoint ?? sc.endpoint.id;
  // A load-balancing endpoint: its base and the deployment's /v2 base, from the URL given (balancer-url.ts).
  const lb = sc.endpoint.type === 'load-balancer' ? balancerUrls(given, endpointId) : undefined;
  const url = lb ? lb.queue : given;
  const apiKey = a['api-key'] ?? process.env.RUNPOD_API_KEY ?? (isLoopback(url) ? 'loadlab' : '');
  if (!apiKey) throw new UsageError('an API key is needed for a non-loopback target: --api-key or RUNPOD_API_KEY');
  const connections = a.connections ?? DEFAULT_CONNECTIONS;
  const { peakPerSec: peak, connections: wanted } = sendLoad(sc);
  const preconnect = Math.min(connections, wanted);
  return () =>
    new HttpTarget(given, {
      url,
      apiKey,
      endpointId,
      ...(lb ? { balancer: lb.balancer } : {}),
      causesReported: isLoopback(url),
      connections,
      preconnect,
      startAtMs: a.startAtMs,
      warmUpRequests: warmUpRequestsFor(peak),
      ...(a.webhooks ? { webhooks: a.webhooks } : {}),
    });
}
