/**
 * Where requests go. The run loop and the client behaviours only see this interface; the
 * in-process target answers from the embedded simulator in virtual time, the HTTP target from a
 * `serve` instance or a real deployment in wall time.
 */
import type { Operation } from '../../contract/operations.js';
import type { RandomStream } from '../../lib/random.js';
import type { DeliveryListener, ReceiverConfig, WebhookRefusals } from './webhook-receiver.js';
import type { EndpointWindows } from '../../report/run-result.js';
import type { BillingRule } from '../../report/worker-bill.js';
import type { WorkerBillSeen } from '../../report/workers-section.js';
import type { StreamContent } from '../behaviours/sse-content.js';

/** The response header naming the worker that answered a load-balancing endpoint's request (lower case). */
export const WORKER_ID_HEADER = 'x-runpod-worker-id';

/** The methods a request may use (a load-balancing endpoint's custom worker takes any). */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD' | 'OPTIONS';

export interface TargetRequest {
  /** The API operation (limits, report rows). */
  op: Operation;
  method: HttpMethod;
  /**
   * Path after `/v2/{endpoint_id}`, e.g. `/run` or `/status/abc-u1`; with `balancer`, the path
   * under the load-balancing endpoint's base, e.g. `/v1/chat/completions`.
   */
  path: string;
  /**
   * A load-balancing endpoint's request (op `lb`): `path` goes under the endpoint's base
   * (`/lb/{endpoint_id}` in the simulator and under serve, `https://{endpoint_id}.api.runpod.ai`
   * on RunPod; docs/run.md "Load-balancing endpoints"), not under `/v2/{endpoint_id}`.
   */
  balancer?: true;
  /**
   * The job id that ends `path`, for a job route (`/status/{id}`, …): a target that wants it
   * need not split the path again. Must equal that last segment when given. Kept here for the
   * in-process target's speed: it looks up its prepared route by operation and hands the id to
   * the Api without parsing the path of each poll (the HTTP targets ignore it).
   */
  jobId?: string;
  query?: Record<string, string>;
  body?: unknown;
  /** Client-side timeout in ms: no answer by then → status 0, `timedOut`. */
  timeoutMs: number;
  /**
   * The caller reads only the status fields of a job's body (`id`, `status`, `delayTime`,
   * `executionTime`, `error`): a target may leave the rest (`workerId`, `output`) out. The
   * in-process target prepares such requests' route brief (PreparedRoute.brief); over HTTP the
   * server sends everything. A target never changes a request: one may be sent again (a poll).
   * Kept here for the in-process target's speed: a brief status body is most of what a run
   * builds (one per poll).
   */
  brief?: boolean;
}

export interface TargetResponse {
  /** HTTP status; 0 when there was no answer. */
  status: number;
  body?: unknown;
  /** Server-sent events (`data:` payloads), for streaming OpenAI answers. */
  sse?: string[];
  /** When each `sse` event arrived, on the target's clock (same length as `sse`); in process: the virtual ms the endpoint sent it. */
  sseAtMs?: number[];
  /**
   * A streamed answer as the in-process target knows it without its text: the content events'
   * instants, the usage count, the error code, the events but `[DONE]`. Readers take it instead of
   * parsing `sse` (which it then spells out only when read).
   */
  stream?: StreamContent;
  timedOut?: boolean;
  /**
   * Response headers a reader uses (lower-case names): `x-runpod-worker-id`, the worker that
   * answered a load-balancing endpoint's request. The HTTP targets keep only that one.
   */
  headers?: Readonly<Record<string, string>>;
  /** Transport error (connection refused, reset, …). */
  error?: string;
}

/** What the target can see of the endpoint itself (in-process only). */
export interface EndpointProbe {
  queueDepth: number;
  runningWorkers: number;
}

/** The endpoint's state over a run, as a target that sees it integrates it (Target.watchEndpoint). */
export interface EndpointWatcher {
  /** Windows 0 to `n - 1` of the watcher's window size, the run having ended at `endMs`; undefined: nothing seen. */
  windows(endMs: number, n: number): EndpointWindows | undefined;
}

/**
 * A target declares what differs between targets (clock, 429 causes, webhooks, URL) so that the
 * run loop never asks which target it has.
 */
export interface Target {
  /** For the report only (`result.target.kind`); the run loop reads the capabilities below. */
  readonly kind: 'in-process' | 'http' | 'lockstep';
  readonly endpointId: string;
  /**
   * `virtual`: integer ms of a simulated clock (a seed determines the run); `wall`: fractional ms
   * of real time since the run started.
   */
  readonly clock: 'virtual' | 'wall';
  /** The URL to show in the report (credentials cut); undefined: none (in-process). */
  readonly reportUrl?: string;
  /** Does a 429 body say which limit it hit (`cause`)? Otherwise the runner infers it. */
  readonly causesReported: boolean;
  /** URL to put in `webhook` of jobs whose client waits for the webhook; undefined: no receiver. */
  readonly webhookUrl: string | undefined;
  /**
   * Starts the built-in webhook receiver, before `drive`: every delivery attempt is answered as
   * `cfg` says (failures drawn from `rng`) and handed to `onDelivery` on this target's clock.
   * Sets `webhookUrl`; `close()` stops the receiver.
   */
  receiveWebhooks(cfg: ReceiverConfig, rng: RandomStream, onDelivery: DeliveryListener): Promise<void>;
  /**
   * What a webhook receiver over HTTP turned away, for a target with one that `receiveWebhooks`
   * started (absent, or undefined: none). Read after `close()`.
   */
  webhookRefusals?(): WebhookRefusals | undefined;
  /** ms since the run started (virtual or wall). */
  now(): number;
  /**
   * Runs `fn` at `atMs` on this target's clock. `again`: what an earlier call with the same `fn`
   * returned, once that call has run; a target may reuse it (in-process: the same timer object,
   * no new one per poll or arrival). Returns what to pass as `again` next time (or undefined).
   * Kept for the in-process run loop's speed: arrivals and /health reads re-arm one timer each.
   */
  at(atMs: number, fn: () => void, again?: unknown): unknown;
  send(req: TargetRequest, done: (res: TargetResponse) => void): void;
  /**
   * Cold starts, for a target that can see them (in-process only; absent: it cannot, and a
   * `cold_start_*` threshold is refused before the run). Call once, before `drive`: from then on
   * the returned function gives, for a job id, the ms the job waited for a starting worker since
   * the previous call for that id (summed over its runs: a crash restarts it), and forgets it;
   * undefined if it did not start since. Called when a terminal status is read.
   */
  watchColdStarts?(): (jobId: string) => number | undefined;
  /**
   * What the workers are billed under `rule` (report/worker-bill.ts), for a target that can see
   * every worker's start and stop (in-process only). Call once, before `drive`; the returned
   * function gives the bill, the alive workers closed at `nowMs` (read once, at the end).
   */
  watchWorkers?(rule: BillingRule): (nowMs: number) => WorkerBillSeen;
  /**
   * The endpoint's state over time (`windows.endpoint`, source `simulator`), for a target that
   * sees every change of it (in process, and in lockstep from the server's own integration;
   * absent: the run falls back on `/health` answers: the runner's own reads, health-sampler.ts, and a `health` flow's). Call once, before `drive`; read the watcher after it.
   */
  watchEndpoint?(windowMs: number): EndpointWatcher;
  /** What the target sees of the endpoint now; read it at once (a target may refill one object). */
  probe(): EndpointProbe | undefined;
  /**
   * Runs the clock until `stop()` is true or `hardEndMs` is reached. `stop()` may turn true at
   * any time (Ctrl-C), from outside the run's events: a target looks at it at least every 250 ms
   * of wall time. `tick` is called now and then (progress line).
   */
  drive(stop: () => boolean, hardEndMs: number, tick: () => void): Promise<void>;
  close(): Promise<void>;
}
