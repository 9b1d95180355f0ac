/**
 * Sends webhook attempts over HTTP with undici: POST of the JSON body, per-attempt timeout 10 s
 * (real time), success = HTTP 200, no redirects followed. A refused target — by its URL, or by
 * the address its name resolves to when the socket connects — is a failed attempt whose error
 * starts `refused:` and says why. The schedule (retries 10 s apart) stays in the core, in virtual time.
 */
import { lookup as dnsLookup } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { Agent, request } from 'undici';
import type { WebhookDelivery, WebhookResult, WebhookSender } from '../contract/webhooks.js';
import { RefusedAddressError, type WebhookTargets } from './webhook-targets.js';

/** Per-attempt timeout, real ms (docs/api.md, webhooks). */
export const WEBHOOK_TIMEOUT_MS = 10_000;

export interface SenderHooks {
  /** Called before an outcome is handed to the core (the real clock syncs here). */
  beforeOutcome?(): void;
  /** Called after (the real clock re-arms: a retry may have been scheduled). */
  afterOutcome?(): void;
}

export class HttpWebhookSender implements WebhookSender {
  private outstanding = 0;
  private waiters: (() => void)[] = [];
  private readonly agent: Agent;

  /** `resolve`: the resolver names go through (default dns.lookup); every answer is checked by `targets`. */
  constructor(
    private readonly targets: WebhookTargets,
    private readonly hooks: SenderHooks = {},
    private readonly timeoutMs = WEBHOOK_TIMEOUT_MS,
    resolve: LookupFunction = dnsLookup as LookupFunction,
  ) {
    this.agent = new Agent({
      connectTimeout: timeoutMs,
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
      keepAliveTimeout: 1000,
      connect: { lookup: targets.guardLookup(resolve) },
    });
  }

  send(d: WebhookDelivery, done: (r: WebhookResult) => void): void {
    this.outstanding++;
    void this.attempt(d).then((r) => {
      this.hooks.beforeOutcome?.();
      done(r);
      this.hooks.afterOutcome?.();
      if (--this.outstanding === 0) for (const w of this.waiters.splice(0)) w();
    });
  }

  /** Resolves when no attempt is out. */
  settled(): Promise<void> {
    if (this.outstanding === 0) return Promise.resolve();
    return new Promise((r) => this.waiters.push(r));
  }

  async close(): Promise<void> {
    await this.agent.close();
  }

  private async attempt(d: WebhookDelivery): Promise<WebhookResult> {
    const t = this.targets.check(d.url);
    if (!t.ok) return { error: `refused: ${t.reason}` };
    try {
      const res = await request(t.url, {
        method: 'POST',
        dispatcher: this.agent,
        headers: { 'content-type': 'application/json', 'user-agent': 'loadlab-webhook' },
        body: JSON.stringify(d.body),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      await res.body.dump();
      return { httpStatus: res.statusCode };
    } catch (e) {
      const err = e as Error & { code?: string; cause?: unknown };
      const refused = [err, err.cause].find((x) => x instanceof RefusedAddressError);
      if (refused) return { error: `refused: ${refused.message}` };
      const reason = err.name === 'TimeoutError' || err.name === 'AbortError' ? `timeout after ${this.timeoutMs} ms` : (err.code ?? err.message);
      return { error: reason };
    }
  }
}
