/**
 * The built-in webhook receiver for HTTP targets: a node:http server on 127.0.0.1 (port 0) whose
 * URL goes into the `webhook` of run-webhook jobs. Every POST is one delivery attempt; the
 * receiver answers 200 or fails as the scenario asks (same rule and random stream as in-process)
 * and hands the attempt to the run. Attempts are numbered per job id in arrival order.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { RandomStream } from '../../../lib/random.js';
import type { WebhookDelivery } from '../../../contract/webhooks.js';
import { failsAttempt, type DeliveryListener, type ReceiverConfig } from '../webhook-receiver.js';
import type { Target } from '../target.js';

/** Largest delivery body read (bytes); a bigger one is answered 413 and not recorded. */
const MAX_BODY_BYTES = 32 * 1024 * 1024;

export interface HttpWebhookReceiver {
  /** e.g. `http://127.0.0.1:41234/webhook` */
  url: string;
  /** Attempts that were not JSON with a string `id` (answered 400). */
  malformed: number;
  close(): Promise<void>;
}

export async function startHttpWebhookReceiver(cfg: ReceiverConfig, rng: RandomStream, endpointId: string, onDelivery: DeliveryListener): Promise<HttpWebhookReceiver> {
  const attempts = new Map<string, number>();
  const r: HttpWebhookReceiver = { url: '', malformed: 0, close: () => Promise.resolve() };
  const server: Server = createServer((req, res) => {
    const parts: Buffer[] = [];
    let bytes = 0;
    req.on('data', (c: Buffer) => {
      bytes += c.length;
      if (bytes <= MAX_BODY_BYTES) parts.push(c);
    });
    req.on('end', () => {
      if (bytes > MAX_BODY_BYTES) return void res.writeHead(413).end();
      let body: Record<string, unknown> | undefined;
      try {
        const v: unknown = JSON.parse(Buffer.concat(parts).toString('utf8'));
        if (typeof v === 'object' && v !== null && typeof (v as { id?: unknown }).id === 'string') body = v as Record<string, unknown>;
      } catch {
        body = undefined;
      }
      if (req.method !== 'POST' || !body) {
        r.malformed++;
        return void res.writeHead(400).end();
      }
      const jobId = body.id as string;
      const attempt = (attempts.get(jobId) ?? 0) + 1;
      attempts.set(jobId, attempt);
      const ok = !failsAttempt(cfg, rng, attempt);
      const d: WebhookDelivery = { endpointId, jobId, url: r.url, body, attempt };
      res.writeHead(ok ? 200 : cfg.failStatus, { 'content-type': 'application/json' }).end(ok ? '{"ok":true}' : '{"ok":false}');
      onDelivery(d, ok);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  r.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhook`;
  r.close = () => new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
  return r;
}

/**
 * The receiver for a target over HTTP. Deliveries come in on their own sockets; each is handled
 * as an event on the target's clock, so that a lockstep run reads the virtual time of the
 * attempt (the advance that made it has returned).
 */
export function receiveOnClock(target: Target, cfg: ReceiverConfig, rng: RandomStream, onDelivery: DeliveryListener): Promise<HttpWebhookReceiver> {
  return startHttpWebhookReceiver(cfg, rng, target.endpointId, (d, ok) => target.at(target.now(), () => onDelivery(d, ok)));
}
