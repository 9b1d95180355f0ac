/**
 * The route table of the job API (docs/api.md; paths under `/v2/{endpoint_id}/`): method set, operation (for
 * limits), whether a `{job_id}` follows, the payload limit, and the handler.
 */
import { health, purgeQueue, requests } from './routes/endpoint-info.js';
import { cancel, retry } from './routes/job-actions.js';
import { chatCompletions, completions, models } from './routes/openai.js';
import { status, statusSync } from './routes/status.js';
import { stream } from './routes/stream.js';
import { run, runsync } from './routes/submit.js';
import { balanced, balancedModels, custom, ping } from './routes/balancer.js';
import type { ParsedPath, Route } from './types.js';

/** Bodies of routes that carry no job: 1 MiB is plenty. */
const SMALL_BODY = 1024 * 1024;
const small = () => SMALL_BODY;
const runsyncBody: Route['maxBodyBytes'] = (l) => l.runsyncPayloadBytes;
const GP = ['GET', 'POST'] as const;

/**
 * Keyed by the first path segment after the endpoint id (openai: the rest of the path). Look a
 * client's segment up with `routeNamed` only: `ROUTES['constructor']` is Object's constructor.
 */
export const ROUTES: Readonly<Record<string, Route>> = {
  run: { methods: ['POST'], op: 'run', takesJobId: false, maxBodyBytes: (l) => l.runPayloadBytes, handler: run },
  runsync: { methods: ['POST'], op: 'runsync', takesJobId: false, maxBodyBytes: (l) => l.runsyncPayloadBytes, handler: runsync },
  status: { methods: GP, op: 'status', takesJobId: true, maxBodyBytes: small, handler: status },
  'status-sync': { methods: GP, op: 'status-sync', takesJobId: true, maxBodyBytes: small, handler: statusSync },
  stream: { methods: GP, op: 'stream', takesJobId: true, maxBodyBytes: small, handler: stream },
  cancel: { methods: ['POST'], op: 'cancel', takesJobId: true, maxBodyBytes: small, handler: cancel },
  retry: { methods: ['POST'], op: 'retry', takesJobId: true, maxBodyBytes: small, handler: retry },
  'purge-queue': { methods: ['POST'], op: 'purge-queue', takesJobId: false, maxBodyBytes: small, handler: purgeQueue },
  health: { methods: ['GET'], op: 'health', takesJobId: false, maxBodyBytes: small, handler: health },
  requests: { methods: ['GET'], op: 'requests', takesJobId: false, maxBodyBytes: small, handler: requests },
  'openai/v1/models': { methods: GP, op: 'openai', takesJobId: false, maxBodyBytes: small, handler: models, openaiErrors: true },
  'openai/v1/chat/completions': { methods: ['POST'], op: 'openai', takesJobId: false, maxBodyBytes: runsyncBody, handler: chatCompletions, openaiErrors: true },
  'openai/v1/completions': { methods: ['POST'], op: 'openai', takesJobId: false, maxBodyBytes: runsyncBody, handler: completions, openaiErrors: true },
};

/** Largest body a load-balancing endpoint takes (RunPod: 30 MB, read as MiB as the other payload limits are: docs/api.md). */
export const BALANCER_PAYLOAD_BYTES = 30 * 1024 * 1024;
const lbBody = () => BALANCER_PAYLOAD_BYTES;
/** Every method a custom worker's route takes. */
const ANY_METHOD = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'] as const;

/**
 * A load-balancing endpoint's routes, keyed by the path under its base `/lb/{endpoint_id}` (one
 * trailing slash tolerated); any other path is the custom worker's (`BALANCER_ANY`). Operation
 * `lb` for all: RunPod documents no rate or concurrency limit on them.
 */
export const BALANCER_ROUTES: Readonly<Record<string, Route>> = {
  '/ping': { methods: ['GET'], op: 'lb', takesJobId: false, maxBodyBytes: small, handler: ping },
  '/v1/models': { methods: GP, op: 'lb', takesJobId: false, maxBodyBytes: small, handler: balancedModels },
  '/v1/chat/completions': { methods: ['POST'], op: 'lb', takesJobId: false, maxBodyBytes: lbBody, handler: balanced(chatCompletions), openaiErrors: true },
  '/v1/completions': { methods: ['POST'], op: 'lb', takesJobId: false, maxBodyBytes: lbBody, handler: balanced(completions), openaiErrors: true },
};

/** Any other path under a load-balancing endpoint's base, any method: the custom worker (routes/balancer.ts). */
export const BALANCER_ANY: Route = { methods: ANY_METHOD, op: 'lb', takesJobId: false, maxBodyBytes: lbBody, handler: custom };

/** Where a load-balancing endpoint's requests go: `/lb/{endpoint_id}` + the path a worker serves. */
export const BALANCER_PREFIX = '/lb/';

/** The path the Api takes for `path` (e.g. `/v1/models`) of load-balancing endpoint `endpointId`. */
export function balancerPath(endpointId: string, path: string): string {
  return `${BALANCER_PREFIX}${endpointId}${path.startsWith('/') || path === '' ? path : `/${path}`}`;
}

/** `/lb/{endpoint_id}[/{path}]`, split; the route is the path's in BALANCER_ROUTES, else the custom worker's. */
function parseBalancerPath(full: string): ParsedPath {
  const a = full.indexOf('/', BALANCER_PREFIX.length);
  const endpointId = a < 0 ? full.slice(BALANCER_PREFIX.length) : full.slice(BALANCER_PREFIX.length, a);
  const rest = a < 0 ? '/' : full.slice(a);
  const key = rest.length > 1 && rest.endsWith('/') ? rest.slice(0, -1) : rest;
  const route = Object.hasOwn(BALANCER_ROUTES, key) ? BALANCER_ROUTES[key]! : BALANCER_ANY;
  return { endpointId, route, jobId: undefined, malformed: false };
}

/** The route of this name, by own property only (a segment such as `__proto__` names none). */
export function routeNamed(name: string): Route | undefined {
  return Object.hasOwn(ROUTES, name) ? ROUTES[name] : undefined;
}

/**
 * Splits `/v2/{endpoint_id}/{route}[/{job_id}]`, or a load-balancing endpoint's
 * `/lb/{endpoint_id}/{path}`; undefined when it is neither. No memo:
 * serve splits each request once, and callers that send one path again keep its PreparedRoute.
 */
export function parsePath(full: string): ParsedPath | undefined {
  if (!full.startsWith('/v2/')) return full.startsWith(BALANCER_PREFIX) ? parseBalancerPath(full) : undefined;
  const path = full.length > 4 && full.endsWith('/') ? full.slice(0, -1) : full; // tolerate one trailing slash
  const a = path.indexOf('/', 4);
  const endpointId = a < 0 ? path.slice(4) : path.slice(4, a);
  if (a < 0) return { endpointId, route: undefined, jobId: undefined, malformed: false };
  return routeAt(endpointId, path, a);
}

const SLASH = 0x2f;

/**
 * `parsePath('/v2/' + endpointId + rest)` for an endpoint id without `/` (config.ts allows none),
 * without building the whole path: `rest` is what follows the id, e.g. `/status/abc-u1`.
 */
export function parseRoute(endpointId: string, rest: string): ParsedPath {
  if (rest.length > 0 && rest.charCodeAt(0) !== SLASH) return parsePath(`/v2/${endpointId}${rest}`)!;
  if (rest.length === 0 || rest === '/') return { endpointId, route: undefined, jobId: undefined, malformed: false };
  return routeAt(endpointId, rest.length > 1 && rest.endsWith('/') ? rest.slice(0, -1) : rest, 0);
}

/** The route part of `path`, whose endpoint id ends at the `/` at index `a` (no trailing slash). */
function routeAt(endpointId: string, path: string, a: number): ParsedPath {
  const b = path.indexOf('/', a + 1);
  const key = b < 0 ? path.slice(a + 1) : path.slice(a + 1, b);
  if (key === 'openai') return { endpointId, route: routeNamed(path.slice(a + 1)), jobId: undefined, malformed: false };
  const route = routeNamed(key);
  if (!route) return { endpointId, route: undefined, jobId: undefined, malformed: false };
  const jobId = route.takesJobId && b >= 0 ? path.slice(b + 1) : undefined;
  const malformed = route.takesJobId ? !jobId || jobId.includes('/') : b >= 0;
  return { endpointId, route, jobId, malformed };
}
