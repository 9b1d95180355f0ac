/**
 * `loadlab serve` as a library: a simulator, its API, a clock, the webhook sender, metrics and a
 * node:http server on top. `startServer` resolves once listening; `close()` shuts down
 * gracefully (stop accepting, answer held requests 503, close connections).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo, LookupFunction, Socket } from 'node:net';
import { Api } from '../api/api.js';
import { balancerPath } from '../api/route-table.js';
import type { SimConfig } from '../contract/endpoint-config.js';
import { Simulator } from '../sim/simulator.js';
import { collectSimMetrics } from '../telemetry/collector.js';
import { collectEngineMetrics } from '../telemetry/engine-metrics.js';
import { collectGpuMetrics } from '../telemetry/gpu-metrics.js';
import { blocksPerWorker, kvCacheUsage } from '../sim/engine-gauges.js';
import { zeroEndpointSeries } from '../telemetry/known-series.js';
import { createMetrics, type Metrics } from '../telemetry/registry.js';
import { loadlabTracer, traceJobs, traceRequest } from '../telemetry/tracing.js';
import type { Clock, ClockKind } from './clock.js';
import { DEFAULT_BOUNDS, type ServeBounds } from './bounds.js';
import { clientErrorCode, REASONS, serverError } from './errors.js';
import { createHandler, type HandlerState } from './http-handler.js';
import { ManualClock, type RequestCounts } from './manual-clock.js';
import { RealClock } from './real-clock.js';
import { HttpWebhookSender } from './webhook-sender.js';
import { WebhookTargets } from './webhook-targets.js';

/** Largest request head (request line + headers), bytes; node answers 431 beyond it. */
export const MAX_HEADER_BYTES = 16 * 1024;
/** How long a graceful shutdown waits for in-flight answers before closing sockets, ms. */
const SHUTDOWN_GRACE_MS = 2000;

export interface ServeOptions {
  config: SimConfig;
  host?: string;
  /** 0 picks a free port. */
  port?: number;
  /** Accepted keys; empty: any non-empty key. */
  apiKeys?: readonly string[];
  clock?: ClockKind;
  /** Real clock: virtual ms per wall ms. */
  speed?: number;
  /** Hostnames (besides loopback) that may receive webhooks. */
  webhookAllow?: readonly string[];
  /** The resolver webhook hostnames go through (default dns.lookup; tests inject one). */
  webhookLookup?: LookupFunction;
  /** Emit OpenTelemetry spans per job and per request (through the globally registered SDK). */
  tracing?: boolean;
  /** Memory and time bounds on what clients may hold (bounds.ts); unset ones keep their defaults. */
  bounds?: Partial<ServeBounds>;
}

export interface RunningServer {
  /** `http://host:port/v2` */
  baseUrl: string;
  /** Each load-balancing endpoint's base URL, `http://host:port/lb/{id}`, by id (config order). */
  balancerUrls: ReadonlyMap<string, string>;
  origin: string;
  port: number;
  sim: Simulator;
  api: Api;
  clock: Clock;
  metrics: Metrics;
  http: Server;
  close(): Promise<void>;
}

export async function startServer(o: ServeOptions): Promise<RunningServer> {
  const sim = new Simulator(o.config);
  const keys = o.apiKeys ?? o.config.apiKeys;
  const api = new Api(sim, { apiKeys: keys });
  let clock: Clock | undefined;
  const sender = new HttpWebhookSender(
    new WebhookTargets(o.webhookAllow),
    {
      beforeOutcome: () => clock?.sync(),
      afterOutcome: () => clock?.poke(),
    },
    undefined,
    o.webhookLookup,
  );
  sim.webhookSender = sender;
  clock = o.clock === 'manual' ? new ManualClock(sim, () => sender.settled()) : new RealClock(sim, o.speed ?? 1);
  const metrics = createMetrics();
  for (const ep of sim.endpoints.values()) zeroEndpointSeries(metrics, ep.cfg);
  const unsubscribe = [
    collectSimMetrics(sim, metrics, function* () {
      for (const [id, ep] of sim.endpoints) yield [id, ep.queue.length, ep.pool.jobsHeld] as [string, number, number];
    }),
  ];
  const balanced = [...sim.endpoints.values()].filter((ep) => ep.balancer !== undefined);
  if (balanced.length)
    metrics.beforeScrape.push(() => {
      for (const ep of balanced) metrics.balancerPending.set({ endpoint: ep.id }, ep.balancer!.pending);
    });
  const llm = [...sim.endpoints.values()].filter((ep) => ep.cfg.llm?.engine);
  if (llm.length)
    collectEngineMetrics(
      metrics,
      llm.map((ep) => ({ id: ep.cfg.id, cache: blocksPerWorker(ep) !== undefined, prefix: ep.cfg.llm!.engine!.prefixCaching === true })),
      () =>
        llm.map((ep) => ({
          endpoint: ep.cfg.id,
          running: ep.engines.running,
          waiting: ep.engines.waiting,
          kvCacheUsage: kvCacheUsage(ep),
          preemptions: ep.engines.preemptions,
          prefixQueries: ep.cfg.llm!.engine!.prefixCaching ? ep.engines.prefixQueries : undefined,
          prefixHits: ep.cfg.llm!.engine!.prefixCaching ? ep.engines.prefixHits : undefined,
        })),
    );
  const placed = [...sim.endpoints.values()].filter((ep) => ep.cfg.gpus?.length);
  if (placed.length)
    collectGpuMetrics(
      metrics,
      placed.map((ep) => ({ id: ep.cfg.id, gpus: ep.cfg.gpus! })),
      () => placed.map((ep) => ({ endpoint: ep.cfg.id, byGpu: ep.pool.countsByGpu! })),
    );
  const tracer = o.tracing ? loadlabTracer() : undefined;
  const toEpochMs = (ms: number) => clock!.toEpochMs(ms);
  if (tracer) unsubscribe.push(traceJobs(sim, toEpochMs, tracer));

  const bounds: ServeBounds = { ...DEFAULT_BOUNDS, ...o.bounds };
  const state: HandlerState = { held: new Set(), closing: false };
  const handler = createHandler(
    {
      api: clock instanceof ManualClock ? countRequests(api, clock.requests) : api,
      sim,
      clock,
      keys,
      metrics,
      bounds,
      ...(tracer ? { onAnswered: (r) => traceRequest(tracer, toEpochMs, r) } : {}),
    },
    state,
  );
  const http = createServer(
    {
      maxHeaderSize: MAX_HEADER_BYTES,
      headersTimeout: bounds.headersTimeoutMs,
      requestTimeout: bounds.requestTimeoutMs,
      // How often node looks for requests past those timeouts: a quarter of the shorter one, at most 30 s.
      connectionsCheckingInterval: Math.max(50, Math.min(30_000, Math.floor(bounds.headersTimeoutMs / 4))),
    },
    handler,
  );
  http.maxConnections = bounds.maxConnections;
  // `Expect: 100-continue` is answered by the handler, once the head has passed (401/404/413 come instead).
  http.on('checkContinue', handler);
  http.on('clientError', (err: NodeJS.ErrnoException, socket: Socket) => {
    // Malformed or late HTTP never reaches the handler: answer JSON when the socket can still
    // take it, and nothing once an answer has begun on it.
    const answering = (socket as Socket & { _httpMessage?: { headersSent?: boolean } | null })._httpMessage?.headersSent === true;
    if (!socket.writable || answering || err.code === 'ECONNRESET') return void socket.destroy();
    const r = serverError(clientErrorCode(err.code));
    const text = JSON.stringify(r.body);
    socket.end(
      `HTTP/1.1 ${r.status} ${REASONS[r.status] ?? 'Error'}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(text)}\r\nconnection: close\r\n\r\n${text}`,
    );
  });

  const host = o.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(o.port ?? 8080, host, () => {
      http.off('error', reject);
      resolve();
    });
  });
  const port = (http.address() as AddressInfo).port;
  const origin = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;

  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      state.closing = true;
      const closed = new Promise<void>((r) => http.close(() => r()));
      for (const respond of [...state.held]) respond(serverError('SRV_ERR_SHUTTING_DOWN'));
      http.closeIdleConnections();
      const grace = new Promise<void>((r) => setTimeout(r, SHUTDOWN_GRACE_MS).unref());
      await Promise.race([closed, grace]);
      http.closeAllConnections();
      await closed;
      clock!.stop();
      for (const u of unsubscribe) u();
      await sender.close();
    })());

  const balancerUrls = new Map(balanced.map((ep) => [ep.id, origin + balancerPath(ep.id, '')]));
  return { baseUrl: `${origin}/v2`, balancerUrls, origin, port, sim, api, clock, metrics, http, close };
}

/**
 * The API with every request counted in and out (manual clock: lockstep clients wait on it). A
 * streamed answer is out when its stream ends: its client reads it whole only then.
 */
function countRequests(api: Api, n: RequestCounts): Api {
  const counted = Object.create(api) as Api;
  counted.handlePrepared = (prepared, jobId, req, respond) => {
    n.received++;
    let open = true;
    const p = api.handlePrepared(prepared, jobId, req, (r) => {
      if (open) {
        if (r.feed) r.feed.whenDone(() => void n.ended++);
        else n.ended++;
      }
      open = false;
      respond(r);
    });
    return {
      abort: () => {
        if (open) n.ended++;
        open = false;
        p.abort();
      },
    };
  };
  return counted;
}
