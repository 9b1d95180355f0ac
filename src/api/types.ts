/**
 * The job API without a transport: a request in, a response out (maybe later); the route it
 * names (route-table.ts parses paths) and what the route's handler gets.
 */
import type { EndpointConfig } from '../contract/endpoint-config.js';
import type { Operation } from '../contract/operations.js';
import type { Endpoint } from '../sim/endpoint.js';
import type { Affinity } from '../sim/balancer.js';
import type { Job } from '../sim/job.js';
import type { Simulator } from '../sim/simulator.js';
import type { SseFeed } from './sse-feed.js';

/** What `Api.prepare` checks once: method, path and key. */
export interface ApiHead {
  method: string;
  /** Path without the query, e.g. `/v2/ep/status/abc-u1`. Segments are taken as they are. */
  path: string;
  /** The `Authorization` header (`Bearer K` or the bare key). */
  authorization?: string | undefined;
}

/** What each request brings besides its head (`Api.handlePrepared`). The Api never changes it. */
export interface ApiPayload {
  query?: Readonly<Record<string, string | undefined>>;
  /** A parsed JSON body (in-process callers). */
  body?: unknown;
  /** A raw body, parsed here (HTTP callers); 400 when it is not JSON. */
  rawBody?: string;
  /**
   * Body size in bytes, for the payload limits; measured from `rawBody` when absent. Both
   * transports give it: the server counts the bytes it read (or the declared size of a body it
   * refused to read), and an in-process caller that hands a parsed `body` must, else the limits
   * would see 0 (the Api does not serialise a parsed body again to measure it).
   */
  bodyBytes?: number;
  /**
   * The `X-Runpod-Worker-Id` request header, on a load-balancing endpoint: the worker a client
   * asks for (`{worker id}`: soft affinity; `strict {id}`; `strict-resume {id}`).
   */
  workerAffinity?: string | undefined;
}

export interface ApiRequest extends ApiHead, ApiPayload {}

export interface ParsedPath {
  endpointId: string;
  route: Route | undefined;
  jobId: string | undefined;
  /** True when the route exists but this path has a missing or extra segment. */
  malformed: boolean;
}

export interface Route {
  methods: readonly string[];
  /** `lb`: a load-balancing endpoint's route (`/lb/{endpoint_id}/…`, route-table.ts); any other, a queue endpoint's. */
  op: Operation;
  takesJobId: boolean;
  /** Largest accepted body in bytes, from the endpoint's limits. */
  maxBodyBytes(limits: EndpointConfig['limits']): number;
  handler(ctx: RouteContext): void;
  /** Its errors are shaped as OpenAI's (openai-errors.ts): the OpenAI routes, and a load-balancing endpoint's completions. */
  openaiErrors?: true;
}

/** What a load-balancing endpoint's request carries to `createJob` (routes/balancer.ts), and the job it made. */
export interface BalancedRequest {
  readonly affinity: Affinity | undefined;
  job: Job | undefined;
}

/** What a route handler gets: the endpoint, the request, its parsed body, and `respond`. */
export interface RouteContext {
  sim: Simulator;
  ep: Endpoint;
  req: ApiPayload;
  /** Leave out what a brief reader does not read (PreparedRoute.brief). */
  brief: boolean;
  /** `{job_id}` of the path, for routes that take one. */
  jobId: string | undefined;
  /** Parsed JSON body (undefined when none was sent). */
  body: unknown;
  /** Answers once and frees the concurrency slot. */
  respond: Respond;
  /** Set by handlers that hold the request: its `abort` is called if the client goes away first. */
  held?: { abort(): void };
  /** A load-balancing endpoint's request, once its balancer took it (routes/balancer.ts `balanced`); undefined on a queue endpoint. */
  balancer?: BalancedRequest | undefined;
}

export interface ApiResponse {
  status: number;
  /** JSON body. */
  body?: unknown;
  /** Server-sent events (`text/event-stream`), each the `data:` of one event. */
  sse?: string[];
  /**
   * Server-sent events that come over time (a streamed OpenAI answer on an `llm:` endpoint): the
   * status is 200 and the events follow as the simulator produces them (sse-feed.ts).
   */
  feed?: SseFeed;
  /** Extra response headers (lower-case names), e.g. `retry-after`. */
  headers?: Readonly<Record<string, string>>;
}

export type Respond = (r: ApiResponse) => void;

/** What `handle` gives back: a way to abandon a held request (the client went away). */
export interface Pending {
  abort(): void;
}

/**
 * The body of an accepted `/run`: `{id, status: "IN_QUEUE"}`. A class so the HTTP layer can write
 * it without `JSON.stringify` (the hot route) while in-process callers pay nothing extra.
 */
export class QueuedAnswer {
  readonly id: string;
  readonly status = 'IN_QUEUE';
  constructor(id: string) {
    this.id = id;
  }
}
