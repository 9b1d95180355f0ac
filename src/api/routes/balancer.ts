/**
 * A load-balancing endpoint's routes, under `/lb/{endpoint_id}/` (route-table.ts; docs/api.md
 * "Load-balancing endpoints"). Each request is routed by the endpoint's balancer to a worker
 * (sim/balancer.ts) and answered by that worker: `/ping`, `/v1/models` (at once, once a worker
 * has it), the OpenAI completions (openai.ts, unchanged), and any other path and method: the
 * custom worker, which echoes the JSON body after `jobDurationMs` (or the body's `sim`
 * directives, as `input.sim` steers the built-in worker).
 *
 * Every answer a worker gave names it in `x-runpod-worker-id`. A request the balancer ended gets
 * the balancer's answer instead (`BALANCER_STATUS`), whatever the route.
 */
import type { BalancerCause } from '../../contract/sim-events.js';
import type { Affinity, AffinityMode } from '../../sim/balancer.js';
import { BALANCER_ERRORS, type Endpoint } from '../../sim/endpoint.js';
import type { Job } from '../../sim/job.js';
import { workerIdPrefix } from '../../sim/worker.js';
import { WORKER_ID_HEADER } from '../../contract/worker-id-header.js';
import { outputValue, parseDirectives, type SimDirectives } from '../../sim/workload.js';
import { badField } from '../errors.js';
import { hold } from '../hold.js';
import { openaiShaped } from '../openai-errors.js';
import type { ApiResponse, BalancedRequest, RouteContext } from '../types.js';
import { MODELS_BODY } from './openai.js';
import { createJob } from './submit.js';

/**
 * The status of the balancer's answer, by why it ended the request; the body is
 * `{"error": message}` (RunPod's shape for "no workers available"). RunPod documents 400
 * `worker_timeout` and 404 `affinity_worker_gone`; the others are loadlab's choices: 503 (no
 * upstream to serve it), 504 (the upstream took too long), 502 (the upstream went away).
 */
export const BALANCER_STATUS: Readonly<Record<BalancerCause, number>> = {
  'no-workers': 503,
  timeout: 504,
  dropped: 502,
  'worker-timeout': 400,
  'worker-gone': 404,
};

/**
 * A route handler run for a load-balancing endpoint's request: its affinity read, then
 * `ctx.balancer` set, by which the context's `respond` completes its answers (completeBalanced).
 */
export function balanced(handler: (ctx: RouteContext) => void): (ctx: RouteContext) => void {
  return (ctx) => {
    const a = affinityOf(ctx.req.workerAffinity, ctx.ep);
    if (a === BAD_AFFINITY) return ctx.respond(badField('X-Runpod-Worker-Id', 'must be a worker id, "strict {id}" or "strict-resume {id}"'));
    const refused = ctx.ep.refuseAffinity(a);
    if (refused !== undefined) return ctx.respond(balancerAnswer(refused, BALANCER_ERRORS[refused]));
    ctx.balancer = { affinity: a, job: undefined };
    handler(ctx);
  };
}

/** `/ping`: the worker answers at once, `{"status": "healthy"}` (a worker answers 200 only once ready). */
export const ping = balanced((ctx) => instant(ctx, PING));

/** `/v1/models`: the worker's model list, at once. */
export const balancedModels = balanced((ctx) => instant(ctx, MODELS));

/** Any other path and method: the custom worker echoes the body, after `jobDurationMs` or its `sim` directives. */
export const custom = balanced((ctx) => {
  const d = parseDirectives(ctx.body);
  if (!d.ok) return ctx.respond(badField(d.field.replace(/^input\./, ''), d.reason));
  const j = createJob(ctx, { kind: 'lb', id: '', input: ctx.body ?? {}, directives: d.directives });
  if (j) hold(ctx, j, ctx.ep.answerWithinMs(j), 'terminal', workerAnswer);
});

const PING: SimDirectives = Object.freeze({ durationMs: 0, fail: false, output: Object.freeze({ status: 'healthy' }) });
const MODELS: SimDirectives = Object.freeze({ durationMs: 0, fail: false, output: MODELS_BODY });

/** A request a worker answers the moment it takes it (0 ms of work). */
function instant(ctx: RouteContext, d: SimDirectives): void {
  const j = createJob(ctx, { kind: 'lb', id: '', input: {}, directives: d });
  if (j) hold(ctx, j, ctx.ep.answerWithinMs(j), 'terminal', workerAnswer);
}

/** The worker's answer: its output (the echo), or a 500 naming its failure. */
function workerAnswer(_ctx: RouteContext, j: Job): ApiResponse {
  if (j.status === 'COMPLETED') return { status: 200, body: outputValue(j.output) };
  return { status: 500, body: { error: j.error ?? j.status } };
}

function balancerAnswer(cause: BalancerCause, error: string): ApiResponse {
  return { status: BALANCER_STATUS[cause], body: { error } };
}

const BAD_AFFINITY = Symbol('bad affinity');
const MODES: ReadonlySet<string> = new Set<AffinityMode>(['strict', 'strict-resume']);

/**
 * The affinity a request's `X-Runpod-Worker-Id` asks for: a bare id (soft), `strict {id}` or
 * `strict-resume {id}`. An id that names no worker of this endpoint ever (another endpoint's, a
 * made-up one) is worker 0, which never exists: soft, it is ignored; strict, the worker is gone.
 */
function affinityOf(header: string | undefined, ep: Endpoint): Affinity | undefined | typeof BAD_AFFINITY {
  if (header === undefined) return undefined;
  const parts = header.trim().split(/\s+/);
  if (parts.length === 1 && parts[0] !== '' && !MODES.has(parts[0]!)) return { mode: 'soft', worker: workerNumber(parts[0]!, ep.id) };
  if (parts.length === 2 && MODES.has(parts[0]!)) return { mode: parts[0] as AffinityMode, worker: workerNumber(parts[1]!, ep.id) };
  return BAD_AFFINITY;
}

/** `{endpoint id}-w{n}` → n (worker.ts `workerId`); 0 for anything else. */
function workerNumber(id: string, endpointId: string): number {
  const prefix = workerIdPrefix(endpointId);
  if (!id.startsWith(prefix)) return 0;
  const rest = id.slice(prefix.length);
  return /^[1-9][0-9]{0,14}$/.test(rest) ? Number(rest) : 0;
}

/**
 * A load-balancing endpoint's answer `r` completed (Call.respond): the balancer's answer in place
 * of any other when the balancer ended the request, else an OpenAI route's errors
 * (`openaiErrors`) shaped as OpenAI's; the worker's id added.
 */
export function completeBalanced(ep: Endpoint, lb: BalancedRequest, r: ApiResponse, openaiErrors: boolean): ApiResponse {
  const j = lb.job;
  const worker = j === undefined ? undefined : ep.jobs.workerIdOf(j);
  const cause = j === undefined ? undefined : ep.balancerCause(j);
  if (cause !== undefined) r = balancerAnswer(cause, j!.error ?? BALANCER_ERRORS[cause]);
  else if (openaiErrors && r.status >= 400) r = openaiShaped(r);
  return worker === undefined ? r : { ...r, headers: { ...r.headers, [WORKER_ID_HEADER]: worker } };
}
