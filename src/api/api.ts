/**
 * `handle(request, respond)`: synchronous up to the point where the answer depends on the future
 * (runsync, status-sync, stream long-poll, openai); then the core keeps `respond` and calls it from
 * the event that ends the wait. Order of checks: auth (401), endpoint (404), route (404/405),
 * payload (413), limits (429: concurrency, then rate), body (400), queue throttling (429).
 * The core never throws on user input: an unexpected exception still answers a JSON 500. Every
 * error of an OpenAI route (`/openai/…`) is shaped as OpenAI's (openai-errors.ts).
 */
import type { Simulator } from '../sim/simulator.js';
import { authorized } from './auth.js';
import { apiError, limited } from './errors.js';
import { isOpenAiPath, openaiShaped } from './openai-errors.js';
import { parsePath } from './route-table.js';
import { PreparedRoute } from './prepared-route.js';
import { completeBalanced } from './routes/balancer.js';
import type { ApiHead, ApiPayload, ApiRequest, ApiResponse, BalancedRequest, Pending, Respond, Route, RouteContext } from './types.js';
import type { Endpoint } from '../sim/endpoint.js';
import type { Operation } from '../contract/operations.js';

export interface ApiOptions {
  /** Accepted keys; empty: any non-empty key (a missing one is still 401). */
  apiKeys?: readonly string[];
}

const NOOP: Pending = { abort() {} };
const FREED: ApiPayload = {};
const NO_REPLY: Respond = () => {};
const routeNotFound = (head: ApiHead) => apiError('API_ERR_ROUTE_NOT_FOUND', `no such route: ${head.method} ${head.path}`);

/**
 * A queue route on a load-balancing endpoint, or a load-balancing route on a queue endpoint: 404
 * saying where the request belongs. `/health` answers on both (the simulator's own view).
 */
function wrongKind(ep: Endpoint, route: Route, id: string): ApiResponse | undefined {
  const lb = ep.balancer !== undefined;
  if (lb === (route.op === 'lb') || (lb && route.op === 'health')) return undefined;
  return lb
    ? apiError(
        'API_ERR_ROUTE_NOT_FOUND',
        `endpoint ${id} is a load-balancing endpoint: it has no queue routes (but /health); send requests to /lb/${id}/{path}`,
      )
    : apiError('API_ERR_ROUTE_NOT_FOUND', `endpoint ${id} is a queue endpoint: /lb/${id}/… serves load-balancing endpoints only; use /v2/${id}/…`);
}

export class Api {
  private readonly keys: readonly string[];

  constructor(
    readonly sim: Simulator,
    opts: ApiOptions = {},
  ) {
    this.keys = opts.apiKeys ?? sim.config.apiKeys;
  }

  handle(req: ApiRequest, respond: Respond): Pending {
    try {
      const parsed = parsePath(req.path);
      const prepared = this.prepare(req, parsed);
      if (!(prepared instanceof PreparedRoute)) return this.end(respond, prepared);
      return this.run(prepared, parsed!.jobId, req, respond);
    } catch (e) {
      return this.failed(respond, e, parsePath(req.path)?.route?.op === 'openai');
    }
  }

  /** Promise form, for tests and scripts. */
  call(req: ApiRequest): Promise<ApiResponse> {
    return new Promise((resolve) => this.handle(req, resolve));
  }

  /**
   * The head checked once, in the API's order: route (404), key (401), endpoint (404), route
   * (404/405). Gives the prepared route, or the answer the head alone gets. The payload limit
   * (413) depends on the body: `PreparedRoute.tooLarge`, and `handlePrepared` checks it again.
   * `parsed`: `parsePath(head.path)` when the caller has it (or `parseRoute`'s, the same).
   * `brief`: the caller reads only the status fields (PreparedRoute.brief).
   */
  prepare(head: ApiHead, parsed = parsePath(head.path), brief = false): PreparedRoute | ApiResponse {
    const p = this.prepareHead(head, parsed, brief);
    return p instanceof PreparedRoute || !parsed || !isOpenAiPath(head.path, parsed.endpointId) ? p : openaiShaped(p);
  }

  private prepareHead(head: ApiHead, parsed: ReturnType<typeof parsePath>, brief: boolean): PreparedRoute | ApiResponse {
    if (!parsed) return routeNotFound(head);
    // Constant time for every request: no memo of the last good key (a `===` against one would
    // leak, by timing, how much of it a guess got right).
    if (!authorized(head.authorization, this.keys)) return apiError('API_ERR_UNAUTHORIZED');
    const ep = this.sim.endpoints.get(parsed.endpointId);
    if (!ep) return apiError('API_ERR_ENDPOINT_NOT_FOUND', `endpoint ${parsed.endpointId} not found`);
    const route = parsed.route;
    if (!route || parsed.malformed) return routeNotFound(head);
    const kindMismatch = wrongKind(ep, route, parsed.endpointId);
    if (kindMismatch) return kindMismatch;
    if (!route.methods.includes(head.method)) {
      return apiError('API_ERR_METHOD_NOT_ALLOWED', `${head.method} not allowed; use ${route.methods.join(' or ')}`);
    }
    return new PreparedRoute(ep, route, head.method, brief);
  }

  /**
   * `handle` after `prepare` (the same key, method and route; `jobId` the path's `{job_id}` for
   * routes that take one, else undefined): the payload limit, then the rate and concurrency
   * limits, the body, the route's handler. Given the answer the head alone got, it answers that:
   * every request of a transport passes here once (serve counts requests in and out here).
   */
  handlePrepared(prepared: PreparedRoute | ApiResponse, jobId: string | undefined, req: ApiPayload, respond: Respond): Pending {
    try {
      if (!(prepared instanceof PreparedRoute)) return this.end(respond, prepared);
      return this.run(prepared, jobId, req, respond);
    } catch (e) {
      return this.failed(respond, e, prepared instanceof PreparedRoute && prepared.op === 'openai');
    }
  }

  private run(prepared: PreparedRoute, jobId: string | undefined, req: ApiPayload, respond: Respond): Pending {
    const bytes = req.bodyBytes ?? (req.rawBody !== undefined ? Buffer.byteLength(req.rawBody) : 0);
    // No body (a poll) fits any limit: no 413 message to consider.
    const op = prepared.op;
    if (bytes > prepared.maxBodyBytes) return this.end(respond, prepared.tooLarge(bytes)!, op === 'openai');
    const ep = prepared.ep;
    const cause = ep.admit(op);
    if (cause) return this.end(respond, limited(cause, op), op === 'openai');

    const spare = this.spare;
    this.spare = undefined;
    const call = spare ? spare.reuse(prepared, req, jobId, respond) : new Call(this.sim, prepared, req, jobId, respond);
    if (req.rawBody !== undefined && req.rawBody.length > 0) {
      try {
        call.body = JSON.parse(req.rawBody);
      } catch {
        call.respond(apiError('API_ERR_BAD_JSON'));
        return NOOP;
      }
    }
    prepared.route.handler(call);
    if (!call.answered) return call;
    // Answered, and nothing holds it (a held request's waiter may still call it): it serves the next request.
    if (call.held === undefined) this.spare = call.free();
    return NOOP;
  }

  /** An answered request's Call, for the next request (one object per request was ~10 % of an in-process run's allocation). */
  private spare: Call | undefined = undefined;

  /** The core never throws on user input; anything else still gets a JSON 500. */
  private failed(respond: Respond, e: unknown, openai: boolean): Pending {
    return this.end(respond, apiError('API_ERR_INTERNAL', `internal error: ${(e as Error).message}`), openai);
  }

  /** Answers a request that never reached its handler; `openai`: an OpenAI route's, whose errors are shaped as OpenAI's. */
  private end(respond: Respond, r: ApiResponse, openai = false): Pending {
    respond(openai ? openaiShaped(r) : r);
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
  balancer: BalancedRequest | undefined = undefined;
  ep: Endpoint;
  brief: boolean;
  private op: Operation;
  private openaiErrors: boolean;

  constructor(
    readonly sim: Simulator,
    prepared: PreparedRoute,
    public req: ApiPayload,
    public jobId: string | undefined,
    private reply: Respond,
  ) {
    this.ep = prepared.ep;
    this.brief = prepared.brief;
    this.op = prepared.op;
    this.openaiErrors = prepared.openaiErrors;
    this.body = req.body;
  }

  /** This object as a new request's (it was answered and `free`d). */
  reuse(prepared: PreparedRoute, req: ApiPayload, jobId: string | undefined, reply: Respond): this {
    this.ep = prepared.ep;
    this.req = req;
    this.jobId = jobId;
    this.op = prepared.op;
    this.openaiErrors = prepared.openaiErrors;
    this.brief = prepared.brief;
    this.reply = reply;
    this.body = req.body;
    this.answered = false;
    return this;
  }

  /** Lets go of the answered request (its body may be large) until `reuse`. */
  free(): this {
    this.req = FREED;
    this.body = undefined;
    this.balancer = undefined;
    this.reply = NO_REPLY;
    return this;
  }

  /**
   * Answers once and frees the concurrency slot (a streamed answer's when its stream ends). A
   * load-balancing request its balancer took has its answer completed (completeBalanced); one
   * answered before that (bad JSON, a bad or refused affinity) keeps the API's shape, as the
   * answers `Api.run` gives before the handler do.
   */
  respond(r: ApiResponse): void {
    if (this.answered) return;
    this.answered = true;
    const lb = this.balancer;
    if (lb !== undefined) r = completeBalanced(this.ep, lb, r, this.openaiErrors);
    else if (this.openaiErrors && this.op !== 'lb' && r.status >= 400) r = openaiShaped(r);
    if (r.feed !== undefined) {
      const ep = this.ep;
      const op = this.op;
      r.feed.whenDone(() => ep.limits.release(op));
    } else this.ep.limits.release(this.op);
    this.reply(r);
  }

  abort(): void {
    if (this.answered) return;
    this.answered = true;
    this.ep.limits.release(this.op);
    this.held?.abort();
  }
}
