/**
 * The default target: the embedded simulator, called through the transport-free Api in virtual
 * time. No sockets, no wall clock: a seed fully determines the run. The only timer is the
 * yield to the event loop between slices of events (a signal, Ctrl-C, gets handled).
 */
import { Api } from '../../../api/api.js';
import { PreparedRoute } from '../../../api/prepared-route.js';
import type { SseFeed } from '../../../api/sse-feed.js';
import { balancerPath, parsePath, parseRoute } from '../../../api/route-table.js';
import { WORKER_ID_HEADER } from '../../../contract/worker-id-header.js';
import type { Endpoint } from '../../../sim/endpoint.js';
import type { Timer } from '../../../lib/scheduler.js';
import type { Simulator } from '../../../sim/simulator.js';
import type { RandomStream } from '../../../lib/random.js';
import type { EndpointProbe, Target, TargetRequest, TargetResponse } from '../target.js';
import type { StreamContent } from '../../behaviours/sse-content.js';
import type { BillingRule } from '../../../report/worker-bill.js';
import type { WorkerBillSeen } from '../../../report/workers-section.js';
import { watchColdStarts } from './cold-starts.js';
import { watchWorkerBill } from './worker-bills.js';
import { EndpointWatch } from './endpoint-watch.js';
import { webhookReceiver, type DeliveryListener, type ReceiverConfig } from '../webhook-receiver.js';
import { InternalError } from '../../../contract/loadlab-error.js';

/** Webhook URL given to jobs; the simulator's injected sender (the built-in receiver) gets it. */
export const IN_PROCESS_WEBHOOK_URL = 'http://receiver.loadlab.invalid/webhook';
const KEY = 'loadlab-in-process';
/** A request as the run loop sends it; a submission says its body's size. */
type Sent = TargetRequest & { bodyBytes?: number };
/** Events between progress ticks (a tick reads the wall clock, then yields to the event loop). */
const TICK_EVERY = 8192;

export class InProcessTarget implements Target {
  readonly kind = 'in-process' as const;
  readonly clock = 'virtual' as const;
  readonly causesReported = true;
  readonly webhookUrl = IN_PROCESS_WEBHOOK_URL;
  private readonly api: Api;
  private readonly ep: Endpoint;
  private readonly prefix: string;

  constructor(
    readonly sim: Simulator,
    readonly endpointId: string,
  ) {
    this.api = new Api(sim, { apiKeys: [] });
    const ep = sim.endpoints.get(endpointId);
    if (!ep) throw new InternalError(`no endpoint ${endpointId} in the simulator`);
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

  /**
   * The Api's head check (key, endpoint, route, method) is made once per operation for job routes
   * (a prepared route does not depend on the job id: a poller's `/status/{id}` costs no path split)
   * and once per path for the rest, then kept for the run: `prepared` and `briefPrepared` (the
   * route `brief` requests read). The request itself goes to the Api as it is (its query, body and
   * size): the Api never changes it.
   */
  send(req: Sent, done: (res: TargetResponse) => void): void {
    const id = req.jobId;
    const kept = this.keptFor(req);
    // A job id that is empty or has a `/` makes the path malformed: sendUnprepared lets the Api say so.
    const p = id === undefined ? kept.get(req.path) : id !== '' && !id.includes('/') ? kept.get(req.op) : undefined;
    if (p === undefined || p.method !== req.method) return this.sendUnprepared(req, done);
    this.dispatch(p, id, req, done);
  }

  /** Prepared routes by path (no job id) or by operation (job routes), for plain and brief requests. */
  private readonly prepared = new Map<string, PreparedRoute>();
  private readonly briefPrepared = new Map<string, PreparedRoute>();
  /** A load-balancing endpoint's prepared routes, by path under its base. */
  private readonly balancerPrepared = new Map<string, PreparedRoute>();

  private keptFor(req: Sent): Map<string, PreparedRoute> {
    return req.balancer === true ? this.balancerPrepared : req.brief === true ? this.briefPrepared : this.prepared;
  }

  /** First send of its route (or a request the head check answers): prepares it and keeps it when it can be reused. */
  private sendUnprepared(req: Sent, done: (res: TargetResponse) => void): void {
    const lb = req.balancer === true;
    const path = lb ? balancerPath(this.endpointId, req.path) : this.prefix + req.path;
    const parsed = lb ? parsePath(path)! : parseRoute(this.endpointId, req.path);
    const p = this.api.prepare({ method: req.method, path, authorization: KEY }, parsed, req.brief === true);
    // The head alone answers (404, 405): never held.
    if (!(p instanceof PreparedRoute)) return done(p);
    const kept = this.keptFor(req);
    if (req.jobId === undefined ? parsed.jobId === undefined : parsed.jobId === req.jobId && p.op === req.op) {
      kept.set(req.jobId === undefined ? req.path : req.op, p);
    }
    this.dispatch(p, parsed.jobId, req, done);
  }

  private dispatch(p: PreparedRoute, jobId: string | undefined, req: Sent, done: (res: TargetResponse) => void): void {
    // Only held operations can answer after the Api returns; every other one answers before it
    // returns, so it needs neither a timeout timer nor a wrapper around `done`.
    if (!p.mayHold) {
      this.api.handlePrepared(p, jobId, req, done);
      return;
    }
    const sched = this.sim.sched;
    let finished = false;
    let timer: ReturnType<typeof sched.at> | undefined;
    let stream: SseFeed | undefined;
    const pending = this.api.handlePrepared(p, jobId, req, (r) => {
      if (finished) return;
      const feed = r.feed;
      // A streamed answer reaches the runner whole, once its last event was sent.
      if (feed !== undefined) {
        stream = feed;
        return feed.listen(undefined, () => {
          if (finished) return;
          finished = true;
          sched.cancel(timer);
          done(new FeedAnswer(r.status, feed, r.headers?.[WORKER_ID_HEADER]));
        });
      }
      finished = true;
      sched.cancel(timer);
      const res: TargetResponse = r.sse ? { status: r.status, sse: r.sse, sseAtMs: r.sse.map(() => sched.nowMs) } : r;
      const worker = r.headers?.[WORKER_ID_HEADER];
      done(worker === undefined ? res : { ...res, workerId: worker });
    });
    if (finished) return;
    timer = sched.after(req.timeoutMs, () => {
      if (finished) return;
      finished = true;
      if (stream) stream.abort();
      else pending.abort();
      done({ status: 0, timedOut: true });
    });
  }

  watchColdStarts(): (jobId: string) => number | undefined {
    return watchColdStarts(this.sim.bus, this.endpointId);
  }

  /** One watch of the pool per run: a second call with the same rule (a plan point and its run) shares it. */
  private bill: { rule: BillingRule; read: (nowMs: number) => WorkerBillSeen } | undefined;

  watchWorkers(rule: BillingRule): (nowMs: number) => WorkerBillSeen {
    const b = this.bill;
    if (b === undefined) return (this.bill = { rule, read: watchWorkerBill(this.ep.pool, rule, this.ep.cfg.gpus) }).read;
    if (b.rule.workersMin !== rule.workersMin || b.rule.idleTailMs !== rule.idleTailMs || b.rule.initializing !== rule.initializing)
      throw new InternalError('the workers are already billed under another rule');
    return b.read;
  }

  private watch: EndpointWatch | undefined;

  watchEndpoint(windowMs: number): EndpointWatch {
    return (this.watch = new EndpointWatch(this.ep, windowMs, this.now()));
  }

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
    const w = this.watch;
    let n = 0;
    while (!stop() && s.stepUntil(hardEndMs)) {
      w?.observe(s.nowMs);
      if (++n === TICK_EVERY) {
        n = 0;
        tick();
        // Signal handlers (Ctrl-C: RunOptions.signal) run only when the event loop does.
        await new Promise<void>((resolve) => setImmediate(resolve));
      }
    }
    // Sessions still open at the hard end: the run ends there (durationMs + drainMs), as a
    // lockstep or HTTP run does, not at the last event before it, which may be one the simulator
    // keeps for itself (a retention lane nobody watches fires up to 1 s late, and not over HTTP).
    if (!stop() && s.nowMs < hardEndMs) s.runUntil(hardEndMs);
  }

  async close(): Promise<void> {}
}

/** A streamed answer: its digest for the run, its text only if something reads it (sse-feed.ts). */
class FeedAnswer implements TargetResponse {
  readonly stream: StreamContent;

  constructor(
    readonly status: number,
    private readonly feed: SseFeed,
    readonly workerId: string | undefined,
  ) {
    this.stream = feed.digest();
  }

  get sse(): string[] {
    return this.feed.events;
  }

  get sseAtMs(): number[] {
    return this.feed.atMs;
  }
}
