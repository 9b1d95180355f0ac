/**
 * The simulator: one virtual clock, one seed forked into named streams, endpoints, and the domain
 * event bus. Pure: time and randomness come from here, I/O (webhook sending) is injected.
 */
import type { EndpointConfig, SimConfig } from '../contract/endpoint-config.js';
import { Endpoint } from './endpoint.js';
import { EventBus } from './event-bus.js';
import { JobIds } from './ids.js';
import { RandomSource } from '../lib/random.js';
import { Scheduler } from '../lib/scheduler.js';
import { acknowledgeAll, type WebhookSender } from '../contract/webhooks.js';

export class Simulator {
  readonly sched = new Scheduler();
  readonly bus = new EventBus();
  readonly random: RandomSource;
  readonly endpoints = new Map<string, Endpoint>();
  /** Delivers webhook attempts; replace it before jobs end (in-process default: always 200). */
  webhookSender: WebhookSender = acknowledgeAll;
  readonly ids: JobIds;

  constructor(readonly config: SimConfig) {
    this.random = new RandomSource(config.seed);
    this.ids = new JobIds(this.random.stream('ids'));
    for (const e of config.endpoints) this.addEndpoint(e);
  }

  addEndpoint(cfg: EndpointConfig): Endpoint {
    const ep = new Endpoint(cfg, this.sched, this.random, this.bus, () => this.webhookSender, this.ids);
    this.endpoints.set(cfg.id, ep);
    return ep;
  }

  get nowMs(): number {
    return this.sched.nowMs;
  }

  newJobId(sync: boolean): string {
    return this.ids.next(sync);
  }

  /** Runs every event up to `untilMs`. */
  runUntil(untilMs: number): void {
    this.sched.runUntil(untilMs);
  }

  advance(ms: number): void {
    this.sched.runUntil(this.sched.nowMs + ms);
  }

  /** Webhook attempts whose outcome is still awaited, over all endpoints. */
  get webhooksInFlight(): number {
    let n = 0;
    for (const e of this.endpoints.values()) n += e.webhooks.inFlight;
    return n;
  }
}
