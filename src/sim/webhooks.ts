/**
 * Webhook delivery schedule (docs/api.md): an attempt on every terminal state, then
 * up to `attempts - 1` more, `intervalMs` apart, until one gets HTTP 200. The body is a snapshot
 * taken when the job ended. Sending is injected: in-process it is a function, over HTTP an undici
 * client in server/; the schedule stays in virtual time either way.
 */
import type { EndpointConfig } from '../contract/endpoint-config.js';
import type { EventBus } from './event-bus.js';
import type { Scheduler } from '../lib/scheduler.js';
import type { WebhookDelivery, WebhookSender } from '../contract/webhooks.js';

export class WebhookScheduler {
  /** Attempts sent whose outcome has not come back (the manual clock waits for these). */
  inFlight = 0;

  constructor(
    private readonly cfg: EndpointConfig['webhook'],
    private readonly sched: Scheduler,
    private readonly bus: EventBus,
    private readonly sender: () => WebhookSender,
  ) {}

  deliver(endpointId: string, jobId: string, url: string, body: Record<string, unknown>): void {
    this.sched.at(this.sched.nowMs, () => this.attempt({ endpointId, jobId, url, body, attempt: 1 }));
  }

  private attempt(d: WebhookDelivery): void {
    const sentAtMs = this.sched.nowMs;
    this.inFlight++;
    let answered = false;
    this.sender().send(d, (r) => {
      if (answered) return;
      answered = true;
      this.inFlight--;
      const ok = r.httpStatus === 200;
      const last = d.attempt >= this.cfg.attempts;
      const outcome = ok ? 'delivered' : last ? 'gave-up' : 'failed';
      if (this.bus.active) {
        this.bus.emit({
          type: 'webhook.attempt',
          atMs: this.sched.nowMs,
          endpointId: d.endpointId,
          jobId: d.jobId,
          attempt: d.attempt,
          outcome,
          ...(r.httpStatus !== undefined ? { httpStatus: r.httpStatus } : {}),
          ...(r.error !== undefined ? { error: r.error } : {}),
        });
      }
      if (!ok && !last) this.sched.at(sentAtMs + this.cfg.intervalMs, () => this.attempt({ ...d, attempt: d.attempt + 1 }));
    });
  }
}
