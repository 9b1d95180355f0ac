/**
 * The default target: the embedded simulator, called through the transport-free Api in virtual
 * time. No sockets, no timers, no wall clock: a seed fully determines the run.
 */
import { Api } from '../../../api/api.js';
import type { ApiRequest, ParsedPath, Route } from '../../../api/types.js';
import { parseRoute, ROUTES } from '../../../api/route-table.js';
import type { Operation } from '../../../contract/operations.js';
import type { Endpoint } from '../../../sim/endpoint.js';
import type { Timer } from '../../../lib/scheduler.js';
import type { Simulator } from '../../../sim/simulator.js';
import type { RandomStream } from '../../../lib/random.js';
import type { EndpointProbe, Target, TargetRequest, TargetResponse } from '../target.js';
import { webhookReceiver, type DeliveryListener, type ReceiverConfig } from '../webhook-receiver.js';

/** Webhook URL given to jobs; the simulator's injected sender (the built-in receiver) gets it. */
export const IN_PROCESS_WEBHOOK_URL = 'http://receiver.loadlab.invalid/webhook';
const KEY = 'loadlab-in-process';
/** Operations whose answer may wait on virtual time (runsync, status-sync, stream long-poll, openai). */
const heldOp = (op: Operation): boolean => op === 'runsync' || op === 'status-sync' || op === 'stream' || op === 'openai';
/**
 * A request's form for the Api, kept on the request (`wire`) for re-sends. A job request (one per
 * job: a poller's `/status/{id}`) is its own split path (`parsed`), and its full path is spelt
 * out only if the Api reads it (error messages): two objects fewer per job.
 */
class Wire implements ApiRequest, ParsedPath {
  readonly authorization = KEY;
  readonly method: string;
  readonly query: Record<string, string> | undefined;
  readonly body: unknown;
  readonly bodyBytes: number | undefined;
  readonly brief: boolean;
  /** The split path: this object (job routes) or the target's memo of the path. */
  parsed: ParsedPath;
  endpointId = '';
  route: Route | undefined = undefined;
  jobId: string | undefined = undefined;
  malformed = false;

  constructor(
    private readonly prefix: string,
    private readonly req: TargetRequest & { bodyBytes?: number },
    /** May the Api hold it (answer later)? */
    readonly held: boolean,
  ) {
    this.method = req.method;
    this.query = req.query;
    this.body = req.body;
    this.bodyBytes = req.bodyBytes;
    this.brief = req.brief === true;
    this.parsed = this;
  }

  get path(): string {
    return this.prefix + this.req.path;
  }
}
/** Events between progress ticks (a tick reads the wall clock). */
const TICK_EVERY = 8192;

export class InProcessTarget implements Target {
  readonly kind = 'in-process' as const;
  readonly clock = 'virtual' as const;
  readonly causesReported = true;
  readonly webhookUrl = IN_PROCESS_WEBHOOK_URL;
  private readonly api: Api;
  private readonly ep: Endpoint;
  private readonly prefix: string;

  constructor(readonly sim: Simulator, readonly endpointId: string) {
    this.api = new Api(sim, { apiKeys: [] });
    const ep = sim.endpoints.get(endpointId);
    if (!ep) throw new Error(`no endpoint ${endpointId} in the simulator`);
    this.ep = ep;
    this.prefix = `/v2/${endpointId}`;
  }

  /** The simulator sends every attempt straight to the receiver, in its own virtual time. */
  async receiveWebhooks(cfg: ReceiverConfig, rng: RandomStream, onDelivery: DeliveryListener): Promise<void> {
    this.sim.webhookSender = webhookReceiver(cfg, rng, onDelivery);
  }

  now(): number {
    return this.sim.sched.nowMs;
  }

  at(atMs: number, fn: () => void, again?: unknown): Timer {
    // A timer that has run is re-armed with its own function: the order is that of a new one.
    return again === undefined ? this.sim.sched.at(atMs, fn) : this.sim.sched.again(again as Timer, atMs);
  }

  send(req: TargetRequest & { bodyBytes?: number }, done: (res: TargetResponse) => void): void {
    // The Api never changes a request, so a re-sent request object (a poll) reuses its wire form.
    const wire = (req.wire as Wire | undefined) ?? (req.wire = this.wire(req));
    // Only held operations can answer after handle() returns; every other one answers before it
    // returns, so it needs neither a timeout timer nor a wrapper around `done`.
    if (!wire.held) {
      this.api.handle(wire, done);
      return;
    }
    const sched = this.sim.sched;
    let finished = false;
    let timer: ReturnType<typeof sched.at> | undefined;
    const pending = this.api.handle(
      wire,
      (r) => {
        if (finished) return;
        finished = true;
        sched.cancel(timer);
        done(r);
      },
    );
    if (finished) return;
    timer = sched.after(req.timeoutMs, () => {
      if (finished) return;
      finished = true;
      pending.abort();
      done({ status: 0, timedOut: true });
    });
  }

  /**
   * The request's wire form, its path split for the Api. Paths without a job id (`/run`,
   * `/health`, …) are split once per run; one with a job id once per request object (a poller's is
   * sent again and again), and not at all when the request names its job id.
   */
  private wire(req: TargetRequest & { bodyBytes?: number }): Wire {
    const w = new Wire(this.prefix, req, heldOp(req.op));
    // A path with a job id is one per job: not worth a memo entry. (Job routes are keyed by their operation.)
    const r = ROUTES[req.op];
    if (r?.takesJobId) {
      const id = req.jobId;
      // What parseRoute makes of `/{op}/{id}` (an id with a `/` is malformed: let it say so).
      if (id !== undefined && id !== '' && !id.includes('/')) {
        w.endpointId = this.endpointId;
        w.route = r;
        w.jobId = id;
      } else w.parsed = parseRoute(this.endpointId, req.path);
      return w;
    }
    let p = this.routes.get(req.path);
    if (!p) this.routes.set(req.path, (p = parseRoute(this.endpointId, req.path)));
    w.parsed = p;
    return w;
  }

  private readonly routes = new Map<string, ParsedPath>();

  /** The same object every call, refilled (callers read it at once; a probe per arrival allocates nothing). */
  private readonly seen: EndpointProbe = { queueDepth: 0, runningWorkers: 0 };

  probe(): EndpointProbe {
    const p = this.seen;
    p.queueDepth = this.ep.queue.length;
    p.runningWorkers = this.ep.pool.counts.running;
    return p;
  }

  async drive(stop: () => boolean, hardEndMs: number, tick: () => void): Promise<void> {
    const s = this.sim.sched;
    let n = 0;
    while (!stop() && s.stepUntil(hardEndMs)) {
      if (++n === TICK_EVERY) {
        n = 0;
        tick();
      }
    }
  }

  async close(): Promise<void> {}
}
