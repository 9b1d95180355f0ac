/**
 * The node:http request handler: request target; the head checked (key, endpoint, route, method,
 * declared size) before any body byte is read; the body (bounded per request and server-wide
 * while reading); then the API, the admin routes, `/metrics` or `/healthz`. Held API responses
 * are written when the core releases them (a virtual-time event); a client that goes away first
 * aborts its hold, which frees the concurrency slot (the job itself carries on). An answer given
 * before the body was read closes the connection with a lingering close.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Api } from '../api/api.js';
import { BALANCER_PREFIX, parsePath } from '../api/route-table.js';
import { PreparedRoute } from '../api/prepared-route.js';
import type { ApiPayload, ApiResponse, Pending } from '../api/types.js';
import type { Simulator } from '../sim/simulator.js';
import type { Metrics } from '../telemetry/registry.js';
import { admin, ADMIN_BODY_BYTES, ADMIN_PATHS } from './admin.js';
import { BalancerHosts } from './balancer-host.js';
import { declaredBytes, hasBody, readBody, type Body } from './body-reader.js';
import type { ServeBounds } from './bounds.js';
import { ByteBudget } from './byte-budget.js';
import { lingerAfterAnswer } from './lingering-close.js';
import type { Clock } from './clock.js';
import { serverError } from './errors.js';
import { reply, replyText } from './reply.js';
import { ResponseGate } from './response-gate.js';
import { jsonTooDeep, MAX_JSON_DEPTH } from './json-depth.js';
import { parseTarget } from './request-target.js';
import { RequestMeter, type RequestRecord } from './request-meter.js';
import { WORKER_ID_HEADER } from '../contract/worker-id-header.js';

/** What `Api.prepare` made of a request's head: its route, or the answer the head alone gets. */
type Head = PreparedRoute | ApiResponse;

/** Where a request's answer goes, and what it is counted under (route label and method). */
interface Answer {
  readonly res: ServerResponse;
  readonly route: string;
  readonly method: string;
}

export interface HandlerDeps {
  api: Api;
  sim: Simulator;
  clock: Clock;
  keys: readonly string[];
  metrics: Metrics;
  bounds: ServeBounds;
  /** Called for every answered request (tracing). */
  onAnswered?: (r: RequestRecord) => void;
}

/** State shared with the server for a graceful shutdown. */
export interface HandlerState {
  /** Requests whose answer waits on virtual time, with a way to end them. */
  held: Set<(r: ApiResponse) => void>;
  closing: boolean;
}

export function createHandler(deps: HandlerDeps, state: HandlerState): (req: IncomingMessage, res: ServerResponse) => void {
  const handler = new HttpHandler(deps, state);
  return (req, res) => handler.handle(req, res);
}

class HttpHandler {
  private readonly bodyBudget: ByteBudget;
  private readonly gate: ResponseGate;
  private readonly meter: RequestMeter;
  private readonly lbHosts: BalancerHosts;

  constructor(
    private readonly deps: HandlerDeps,
    private readonly state: HandlerState,
  ) {
    this.bodyBudget = new ByteBudget(deps.bounds.requestBodyBytesInFlight);
    this.gate = new ResponseGate(deps.bounds.responseBytesInFlight);
    this.meter = new RequestMeter(deps.metrics, deps.sim, deps.onAnswered);
    this.lbHosts = new BalancerHosts(deps.sim.endpoints.keys());
  }

  handle(req: IncomingMessage, res: ServerResponse): void {
    this.guarded(res, () => this.route(req, res))();
  }

  /**
   * A request for `{id}.api.runpod.ai` (any path): load-balancing endpoint `id`'s. Else by path:
   * the job API under `/v2/` and `/lb/`, the admin routes, `/metrics` and `/healthz`, else 404.
   */
  private route(req: IncomingMessage, res: ServerResponse): void {
    const method = req.method ?? 'GET';
    const t = parseTarget(req.url);
    if (!t.ok) {
      const r = t.reason === 'too-long' ? serverError('SRV_ERR_URI_TOO_LONG') : serverError('SRV_ERR_BAD_ENCODING');
      return this.simple({ res, route: 'unknown', method }, r, true);
    }
    const { path } = t;
    const lb = this.lbHosts.pathFor(req.headers.host, path);
    if (lb !== undefined) return this.apiRequest(req, res, lb, t.query);
    if (path.startsWith('/v2/') || path.startsWith(BALANCER_PREFIX)) return this.apiRequest(req, res, path, t.query);
    if (ADMIN_PATHS.has(path)) return this.adminRequest(req, res, path);
    if (path === '/metrics' || path === '/healthz') return this.ownRoute(res, method, path);
    this.simple({ res, route: 'unknown', method }, serverError('SRV_ERR_NOT_FOUND', `no such route: ${path.length > 200 ? `${path.slice(0, 200)}…` : path}`));
  }

  /**
   * A job API request. Key, endpoint, route, method and a declared size are decided from the
   * head, before a byte of the body is read: the API answers those (in its order) from the head
   * alone. (A request without a body goes straight to the API, which checks the same in the same
   * order.) The head is checked once: the body phase reuses what it gave (the prepared route).
   */
  private apiRequest(req: IncomingMessage, res: ServerResponse, path: string, query: Record<string, string>): void {
    const method = req.method ?? 'GET';
    const p = parsePath(path);
    const a: Answer = { res, route: p?.route?.op ?? 'unknown', method };
    if (this.state.closing) return this.unread(req, a, serverError('SRV_ERR_SHUTTING_DOWN'));
    const head = this.deps.api.prepare({ method, path, authorization: req.headers.authorization }, p);
    const jobId = p?.jobId;
    // A load-balancing endpoint's request asks for a worker with `X-Runpod-Worker-Id` (node joins repeats with ", ").
    const workerAffinity = req.headers[WORKER_ID_HEADER] as string | undefined;
    if (!hasBody(req)) return this.dispatch(a, head, jobId, { query, rawBody: '', bodyBytes: 0, workerAffinity }, false);
    const declared = declaredBytes(req);
    if (!(head instanceof PreparedRoute) || head.tooLarge(declared)) return this.dispatchUnread(req, a, head, { query, bodyBytes: declared, workerAffinity });
    continueIfAsked(req, res);
    readBody(
      req,
      head.maxBodyBytes,
      this.bodyBudget,
      this.guarded(res, (b: Body) => {
        if (b.kind === 'busy') return this.unread(req, a, serverError('SRV_ERR_BUSY'));
        if (this.state.closing) return this.unread(req, a, serverError('SRV_ERR_SHUTTING_DOWN'));
        if (b.kind === 'too-large') return this.dispatchUnread(req, a, head, { query, bodyBytes: b.bytes });
        this.meter.body(b.bytes);
        if (b.text !== undefined && jsonTooDeep(b.text)) {
          return this.simple(a, serverError('SRV_ERR_TOO_DEEP', `JSON body nested deeper than ${MAX_JSON_DEPTH} levels`));
        }
        this.dispatch(a, head, jobId, { query, rawBody: b.text ?? '', bodyBytes: b.bytes, workerAffinity }, false);
      }),
    );
  }

  /**
   * Hands a request to the API (`head`: its prepared route, or the answer its head alone got); a
   * held answer is written when the core releases it, and a client that goes away first aborts
   * its hold.
   */
  private dispatch(a: Answer, head: Head, jobId: string | undefined, payload: ApiPayload, close: boolean): void {
    const { clock, sim, api } = this.deps;
    const state = this.state;
    clock.sync();
    const startMs = sim.nowMs;
    let answered = false;
    let held = false;
    const respond = (r: ApiResponse) => {
      if (answered) return;
      answered = true;
      if (held) state.held.delete(respond);
      reply(a.res, r, close, this.gate);
      this.meter.answered(a.route, a.method, r.status, startMs);
    };
    const pending: Pending = api.handlePrepared(head, jobId, payload, respond);
    clock.poke();
    if (answered) return;
    held = true;
    state.held.add(respond);
    a.res.on('close', () => {
      if (answered) return;
      answered = true;
      state.held.delete(respond);
      pending.abort();
      this.meter.answered(a.route, a.method, 499, startMs); // nginx's "client closed request"
    });
  }

  /** The API answers from the head or the size alone; the unread rest of the body lingers. */
  private dispatchUnread(req: IncomingMessage, a: Answer, head: Head, payload: ApiPayload): void {
    if (!req.complete) lingerAfterAnswer(req, this.deps.bounds);
    this.dispatch(a, head, undefined, payload, true);
  }

  private adminRequest(req: IncomingMessage, res: ServerResponse, path: string): void {
    const a: Answer = { res, route: 'admin', method: req.method ?? 'GET' };
    if (declaredBytes(req) > ADMIN_BODY_BYTES) return this.unread(req, a, serverError('SRV_ERR_PAYLOAD_TOO_LARGE'));
    continueIfAsked(req, res);
    readBody(
      req,
      ADMIN_BODY_BYTES,
      this.bodyBudget,
      this.guarded(res, (b: Body) => {
        if (b.kind !== 'ok') return this.unread(req, a, serverError(b.kind === 'busy' ? 'SRV_ERR_BUSY' : 'SRV_ERR_PAYLOAD_TOO_LARGE'));
        const r = admin(this.deps, a.method, path, req.headers.authorization, b.text);
        if (r instanceof Promise) {
          r.then(
            (x) => this.simple(a, x),
            (e: Error) => this.simple(a, serverError('SRV_ERR_INTERNAL', `advance failed: ${e.message}`)),
          );
        } else this.simple(a, r);
      }),
    );
  }

  /** `/healthz` (the server itself) and `/metrics` (Prometheus text); GET or HEAD only. */
  private ownRoute(res: ServerResponse, method: string, path: '/metrics' | '/healthz'): void {
    if (method !== 'GET' && method !== 'HEAD')
      return this.simple({ res, route: 'unknown', method }, serverError('SRV_ERR_METHOD_NOT_ALLOWED', `${method} not allowed; use GET`));
    if (path === '/healthz') return this.simple({ res, route: 'healthz', method }, { status: 200, body: { status: this.state.closing ? 'closing' : 'ok' } });
    const { clock, metrics, sim } = this.deps;
    clock.sync();
    void metrics.registry.metrics().then((text) => {
      replyText(res, 200, metrics.registry.contentType, text);
      this.meter.answered('metrics', method, 200, sim.nowMs);
    });
  }

  /** Writes an answer given now, without the API. */
  private simple(a: Answer, r: ApiResponse, close = false): void {
    reply(a.res, r, close, this.gate);
    this.meter.answered(a.route, a.method, r.status, this.deps.sim.nowMs);
  }

  /**
   * Answers a request whose body is not (all) read: `Connection: close`, and the rest of the body
   * read and thrown away while the answer goes out (lingering-close.ts).
   */
  private unread(req: IncomingMessage, a: Answer, r: ApiResponse): void {
    const close = hasBody(req) && !req.complete;
    if (close) lingerAfterAnswer(req, this.deps.bounds);
    this.simple(a, r, close);
  }

  /**
   * Last resort: an exception no layer expected answers a JSON 500 (no stack, no message: it may
   * quote the request) and the server carries on. The stack frames go to stderr for the operator.
   */
  private guarded<A extends unknown[]>(res: ServerResponse, f: (...a: A) => void): (...a: A) => void {
    return (...a: A): void => {
      try {
        f(...a);
      } catch (e) {
        const frames = ((e as Error)?.stack ?? '').split('\n').slice(1, 6).join('\n');
        process.stderr.write(`loadlab serve: internal error (${(e as Error)?.name ?? typeof e}), answered 500\n${frames}\n`);
        if (res.headersSent) res.destroy();
        else this.simple({ res, route: 'unknown', method: res.req?.method ?? 'GET' }, serverError('SRV_ERR_INTERNAL'), true);
      }
    };
  }
}

/** node answers `Expect: 100-continue` only when told to: once the head has passed. */
function continueIfAsked(req: IncomingMessage, res: ServerResponse): void {
  if (req.headers.expect?.toLowerCase() === '100-continue') res.writeContinue();
}
