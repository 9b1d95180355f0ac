/**
 * `handle(request, respond)`: synchronous up to the point where the answer depends on the future
 * (runsync, status-sync, stream long-poll, openai); then the core keeps `respond` and calls it from
 * the event that ends the wait. Order of checks: auth (401), endpoint (404), route (404/405),
 * payload (413), limits (429: concurrency, then rate), body (400), queue throttling (429).
 * The core never throws on user input: an unexpected exception still answers a JSON 500.
 */
import type { Simulator } from '../sim/simulator.js';
import { authorized } from './auth.js';
import { apiError, limited } from './errors.js';
import { parsePath } from './route-table.js';
import type { ApiRequest, ApiResponse, ParsedPath, Pending, Respond, RouteContext } from './types.js';
import type { Endpoint } from '../sim/endpoint.js';
import type { Operation } from '../contract/operations.js';

export interface ApiOptions {
  /** Accepted keys; empty: any non-empty key (a missing one is still 401). */
  apiKeys?: readonly string[];
}

const NOOP: Pending = { abort() {} };
const FREED: ApiRequest = { method: '', path: '' };
const NO_REPLY: Respond = () => {};

export class Api {
  private readonly keys: readonly string[];

  constructor(readonly sim: Simulator, opts: ApiOptions = {}) {
    this.keys = opts.apiKeys ?? sim.config.apiKeys;
  }

  handle(req: ApiRequest, respond: Respond): Pending {
    try {
      return this.route(req, respond);
    } catch (e) {
      respond(apiError('API_ERR_INTERNAL', `internal error: ${(e as Error).message}`));
      return NOOP;
    }
  }

  /** Promise form, for tests and scripts. */
  call(req: ApiRequest): Promise<ApiResponse> {
    return new Promise((resolve) => this.handle(req, resolve));
  }

  /**
   * The answer a request gets from its head alone (method, path, key, and `bodyBytes` as
   * declared), in the API's order: route (404), key (401), endpoint (404), route (404/405),
   * payload (413). Undefined when the head passes. A transport asks this before reading a body.
   */
  headCheck(req: ApiRequest): ApiResponse | undefined {
    return this.checkHead(req, req.parsed ?? parsePath(req.path), req.bodyBytes ?? 0);
  }

  /** `headCheck`; when it passes, `this.lastEndpoint` is the request's endpoint. */
  private checkHead(req: ApiRequest, p: ParsedPath | undefined, bytes: number): ApiResponse | undefined {
    if (!p) return apiError('API_ERR_ROUTE_NOT_FOUND', `no such route: ${req.method} ${req.path}`);
    if (!this.authorized(req.authorization)) return apiError('API_ERR_UNAUTHORIZED');
    // The same endpoint id string again (an in-process caller's): no Map lookup.
    const ep = p.endpointId === this.lastEndpointId ? this.lastEndpoint : this.endpoint(p.endpointId);
    if (!ep) return apiError('API_ERR_ENDPOINT_NOT_FOUND', `endpoint ${p.endpointId} not found`);
    const route = p.route;
    if (!route || p.malformed) return apiError('API_ERR_ROUTE_NOT_FOUND', `no such route: ${req.method} ${req.path}`);
    if (!route.methods.includes(req.method)) {
      return apiError('API_ERR_METHOD_NOT_ALLOWED', `${req.method} not allowed; use ${route.methods.join(' or ')}`);
    }
    // No body (a poll) fits any limit: no call to the route's limit function (1 % of the diurnal day).
    const max = bytes > 0 ? route.maxBodyBytes(ep.cfg.limits) : 0;
    if (bytes > max) return apiError('API_ERR_PAYLOAD_TOO_LARGE', `payload of ${bytes} bytes exceeds ${max} bytes`);
    return undefined;
  }

  private route(req: ApiRequest, respond: Respond): Pending {
    const p = req.parsed ?? parsePath(req.path);
    const bytes = req.bodyBytes ?? (req.rawBody !== undefined ? Buffer.byteLength(req.rawBody) : 0);
    const early = this.checkHead(req, p, bytes);
    if (early) return this.end(respond, early);
    const ep = this.lastEndpoint!;
    const route = p!.route!;
    const cause = ep.admit(route.op);
    if (cause) return this.end(respond, limited(cause, route.op));

    const spare = this.spare;
    this.spare = undefined;
    const call = spare ? spare.reuse(ep, req, p!.jobId, route.op, respond) : new Call(this.sim, ep, req, p!.jobId, route.op, respond);
    if (req.rawBody !== undefined && req.rawBody.length > 0) {
      try {
        call.body = JSON.parse(req.rawBody);
      } catch {
        call.respond(apiError('API_ERR_BAD_JSON'));
        return NOOP;
      }
    }
    route.handler(call);
    if (!call.answered) return call;
    // Answered, and nothing holds it (a held request's waiter may still call it): it serves the next request.
    if (call.held === undefined) this.spare = call.free();
    return NOOP;
  }

  /** An answered request's Call, for the next request (one object per request was ~10 % of an in-process run's allocation). */
  private spare: Call | undefined = undefined;

  private lastEndpointId: string | undefined = undefined;
  private lastEndpoint: Endpoint | undefined = undefined;

  private endpoint(id: string): Endpoint | undefined {
    const ep = this.sim.endpoints.get(id);
    if (ep) {
      this.lastEndpointId = id;
      this.lastEndpoint = ep;
    }
    return ep;
  }

  /**
   * Every request is checked in constant time: no memo of the last good header, since comparing
   * against one with `===` would leak, by timing, how much of it a guess got right.
   */
  private authorized(authorization: string | undefined): boolean {
    return authorized(authorization, this.keys);
  }

  private end(respond: Respond, r: ApiResponse): Pending {
    respond(r);
    return NOOP;
  }
}

/**
 * One admitted request: the route context handlers get, and the `Pending` of a held request.
 * One object per request (no closures): at a million requests per second, allocations count.
 */
class Call implements RouteContext, Pending {
  body: unknown;
  answered = false;
  held: { abort(): void } | undefined = undefined;

  constructor(
    readonly sim: Simulator,
    public ep: Endpoint,
    public req: ApiRequest,
    public jobId: string | undefined,
    private op: Operation,
    private reply: Respond,
  ) {
    this.body = req.body;
  }

  /** This object as a new request's (it was answered and `free`d). */
  reuse(ep: Endpoint, req: ApiRequest, jobId: string | undefined, op: Operation, reply: Respond): this {
    this.ep = ep;
    this.req = req;
    this.jobId = jobId;
    this.op = op;
    this.reply = reply;
    this.body = req.body;
    this.answered = false;
    return this;
  }

  /** Lets go of the answered request (its body may be large) until `reuse`. */
  free(): this {
    this.req = FREED;
    this.body = undefined;
    this.reply = NO_REPLY;
    return this;
  }

  /** Answers once and frees the concurrency slot. */
  respond(r: ApiResponse): void {
    if (this.answered) return;
    this.answered = true;
    this.ep.limits.release(this.op);
    this.reply(r);
  }

  abort(): void {
    if (this.answered) return;
    this.answered = true;
    this.ep.limits.release(this.op);
    this.held?.abort();
  }
}
