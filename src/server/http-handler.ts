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
import { parsePath } from '../api/route-table.js';
import { PreparedRoute } from '../api/prepared-route.js';
import type { ApiPayload, ApiResponse, Pending } from '../api/types.js';
import type { Simulator } from '../sim/simulator.js';
import { BatchedCounter } from '../telemetry/batched-counter.js';
import type { Metrics } from '../telemetry/registry.js';
import { admin, ADMIN_BODY_BYTES, ADMIN_PATHS } from './admin.js';
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

const requestLabels = (route: string, status: number) => ({ route, status: String(status) });

/** What `Api.prepare` made of a request's head: its route, or the answer the head alone gets. */
type Head = PreparedRoute | ApiResponse;

export interface RequestRecord {
  route: string;
  method: string;
  status: number;
  /** Virtual ms of arrival and answer. */
  startMs: number;
  endMs: number;
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
  const { api, sim, clock, metrics } = deps;
  const bodyBudget = new ByteBudget(deps.bounds.requestBodyBytesInFlight);
  const gate = new ResponseGate(deps.bounds.responseBytesInFlight);

  // Per-request counts are summed here and handed to prom-client at scrape time.
  const requests = new BatchedCounter(metrics.httpRequests);
  let bodyBytes = 0;
  metrics.beforeScrape.push(() => {
    requests.flush();
    if (bodyBytes > 0) metrics.httpRequestBodyBytes.inc(bodyBytes);
    bodyBytes = 0;
  });
  const record = (route: string, method: string, status: number, startMs: number) => {
    requests.inc(route, status, requestLabels);
    const endMs = sim.nowMs;
    // Only requests that were held (answered at a later virtual time) go into the histogram.
    if (endMs > startMs) metrics.httpRequestDuration.observe({ route }, (endMs - startMs) / 1000);
    deps.onAnswered?.({ route, method, status, startMs, endMs });
  };

  const simple = (res: ServerResponse, route: string, method: string, r: ApiResponse, close = false) => {
    reply(res, r, close, gate);
    record(route, method, r.status, sim.nowMs);
  };

  /**
   * Answers a request whose body is not (all) read: `Connection: close`, and the rest of the body
   * read and thrown away while the answer goes out (lingering-close.ts).
   */
  const unread = (req: IncomingMessage, res: ServerResponse, route: string, method: string, r: ApiResponse) => {
    const close = hasBody(req) && !req.complete;
    if (close) lingerAfterAnswer(req, deps.bounds);
    simple(res, route, method, r, close);
  };

  /** The API answers from the head or the size alone; the unread rest of the body lingers. */
  const dispatchUnread = (req: IncomingMessage, res: ServerResponse, label: string, method: string, head: Head, payload: ApiPayload) => {
    if (!req.complete) lingerAfterAnswer(req, deps.bounds);
    dispatch(res, label, method, head, undefined, payload, true);
  };

  /** node answers `Expect: 100-continue` only when told to: once the head has passed. */
  const continueIfAsked = (req: IncomingMessage, res: ServerResponse) => {
    if (req.headers.expect?.toLowerCase() === '100-continue') res.writeContinue();
  };

  function v2(req: IncomingMessage, res: ServerResponse, path: string, query: Record<string, string>): void {
    const method = req.method ?? 'GET';
    const p = parsePath(path);
    const label = p?.route?.op ?? 'unknown';
    const authorization = req.headers.authorization;
    if (state.closing) return unread(req, res, label, method, serverError('SRV_ERR_SHUTTING_DOWN'));
    // Key, endpoint, route, method and a declared size are decided from the head, before a byte
    // of the body is read: the API answers those (in its order) from the head alone. (A request
    // without a body goes straight to the API, which checks the same in the same order.)
    // The head is checked once: the body phase reuses what it gave (the prepared route).
    const head = api.prepare({ method, path, authorization }, p);
    const jobId = p?.jobId;
    if (!hasBody(req)) return dispatch(res, label, method, head, jobId, { query, rawBody: '', bodyBytes: 0 }, false);
    const declared = declaredBytes(req);
    if (!(head instanceof PreparedRoute) || head.tooLarge(declared)) return dispatchUnread(req, res, label, method, head, { query, bodyBytes: declared });
    continueIfAsked(req, res);
    readBody(req, head.maxBodyBytes, bodyBudget, guarded(res, (b: Body) => {
      if (b.kind === 'busy') return unread(req, res, label, method, serverError('SRV_ERR_BUSY'));
      if (state.closing) return unread(req, res, label, method, serverError('SRV_ERR_SHUTTING_DOWN'));
      if (b.kind === 'too-large') return dispatchUnread(req, res, label, method, head, { query, bodyBytes: b.bytes });
      bodyBytes += b.bytes;
      if (b.text !== undefined && jsonTooDeep(b.text)) {
        return simple(res, label, method, serverError('SRV_ERR_TOO_DEEP', `JSON body nested deeper than ${MAX_JSON_DEPTH} levels`));
      }
      dispatch(res, label, method, head, jobId, { query, rawBody: b.text ?? '', bodyBytes: b.bytes }, false);
    }));
  }

  /**
   * Hands a request to the API (`head`: its prepared route, or the answer its head alone got); a
   * held answer is written when the core releases it.
   */
  function dispatch(res: ServerResponse, label: string, method: string, head: Head, jobId: string | undefined, payload: ApiPayload, close: boolean): void {
    clock.sync();
    const startMs = sim.nowMs;
    let answered = false;
    let held = false;
    const respond = (r: ApiResponse) => {
      if (answered) return;
      answered = true;
      if (held) state.held.delete(respond);
      reply(res, r, close, gate);
      record(label, method, r.status, startMs);
    };
    const pending: Pending = api.handlePrepared(head, jobId, payload, respond);
    clock.poke();
    if (answered) return;
    held = true;
    state.held.add(respond);
    res.on('close', () => {
      if (answered) return;
      answered = true;
      state.held.delete(respond);
      pending.abort();
      record(label, method, 499, startMs); // nginx's "client closed request"
    });
  }

  function adminRoute(req: IncomingMessage, res: ServerResponse, path: string): void {
    const method = req.method ?? 'GET';
    if (declaredBytes(req) > ADMIN_BODY_BYTES) return unread(req, res, 'admin', method, serverError('SRV_ERR_PAYLOAD_TOO_LARGE'));
    continueIfAsked(req, res);
    readBody(req, ADMIN_BODY_BYTES, bodyBudget, guarded(res, (b: Body) => {
      if (b.kind !== 'ok') return unread(req, res, 'admin', method, serverError(b.kind === 'busy' ? 'SRV_ERR_BUSY' : 'SRV_ERR_PAYLOAD_TOO_LARGE'));
      const r = admin(deps, method, path, req.headers.authorization, b.text);
      if (r instanceof Promise) {
        r.then(
          (x) => simple(res, 'admin', method, x),
          (e: Error) => simple(res, 'admin', method, serverError('SRV_ERR_INTERNAL', `advance failed: ${e.message}`)),
        );
      }
      else simple(res, 'admin', method, r);
    }));
  }

  /**
   * Last resort: an exception no layer expected answers a JSON 500 (no stack, no message: it may
   * quote the request) and the server carries on. The stack frames go to stderr for the operator.
   */
  const guarded = <A extends unknown[]>(res: ServerResponse, f: (...a: A) => void) => (...a: A): void => {
    try {
      f(...a);
    } catch (e) {
      const frames = ((e as Error)?.stack ?? '').split('\n').slice(1, 6).join('\n');
      process.stderr.write(`loadlab serve: internal error (${(e as Error)?.name ?? typeof e}), answered 500\n${frames}\n`);
      if (res.headersSent) res.destroy();
      else simple(res, 'unknown', res.req?.method ?? 'GET', serverError('SRV_ERR_INTERNAL'), true);
    }
  };

  return (req, res) => guarded(res, route)(req, res);

  function route(req: IncomingMessage, res: ServerResponse): void {
    const method = req.method ?? 'GET';
    const t = parseTarget(req.url);
    if (!t.ok) {
      const r = t.reason === 'too-long' ? serverError('SRV_ERR_URI_TOO_LONG') : serverError('SRV_ERR_BAD_ENCODING');
      return simple(res, 'unknown', method, r, true);
    }
    const { path } = t;
    if (path.startsWith('/v2/')) return v2(req, res, path, t.query);
    if (ADMIN_PATHS.has(path)) return adminRoute(req, res, path);
    if (path === '/metrics' || path === '/healthz') {
      if (method !== 'GET' && method !== 'HEAD') return simple(res, 'unknown', method, serverError('SRV_ERR_METHOD_NOT_ALLOWED', `${method} not allowed; use GET`));
      if (path === '/healthz') return simple(res, 'healthz', method, { status: 200, body: { status: state.closing ? 'closing' : 'ok' } });
      clock.sync();
      void metrics.registry.metrics().then((text) => {
        replyText(res, 200, metrics.registry.contentType, text);
        record('metrics', method, 200, sim.nowMs);
      });
      return;
    }
    simple(res, 'unknown', method, serverError('SRV_ERR_NOT_FOUND', `no such route: ${path.length > 200 ? `${path.slice(0, 200)}…` : path}`));
  }
}
