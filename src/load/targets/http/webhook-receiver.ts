/**
 * The built-in webhook receiver for targets over HTTP (`loadlab run --target`, lockstep too): a
 * node:http server whose URL goes into the `webhook` of run-webhook jobs.
 *
 * - It listens where asked (`--webhook-listen`; default 127.0.0.1 on a free port). The endpoint
 *   is given a base URL (`--webhook-url`; default `http://HOST:PORT` of the listener) with
 *   `/webhook/<token>` appended, the token 128 random bits in base64url: a secret, and the only
 *   authentication. A base URL with a path keeps it (`https://t.example/hooks` →
 *   `https://t.example/hooks/webhook/<token>`); the receiver takes that path as is (a tunnel
 *   forwards it unchanged) or without the base URL's path (a proxy that strips its prefix).
 * - Only a POST to that path is a delivery. Anything else (another path, a missing or wrong
 *   token, another method) is answered 404 and counted `refused`; a POST to it whose body is over
 *   MAX_BODY_BYTES (413) or not JSON with a string `id` (400) is counted `malformed`. Neither is
 *   recorded as an attempt.
 * - Every delivery is one attempt: answered 200, or failed as the scenario asks (same rule and
 *   random stream as in-process), and handed to the run. Attempts are numbered per job id in
 *   arrival order.
 *
 * The URL with its token never leaves this module but to the target (the job's `webhook`): what
 * is shown of it is `shownUrl`, the token replaced by `<token>`.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { isIP, type AddressInfo } from 'node:net';
import type { RandomStream } from '../../../lib/random.js';
import type { WebhookDelivery } from '../../../contract/webhooks.js';
import { failsAttempt, type DeliveryListener, type ReceiverConfig, type WebhookRefusals } from '../webhook-receiver.js';
import type { Target } from '../target.js';

/** Largest delivery body taken (bytes): a job's status with its output; a bigger one is answered 413. */
export const MAX_BODY_BYTES = 1024 * 1024;
/** Random bytes of the token in the receiver's path. */
const TOKEN_BYTES = 16;

/** Where the receiver listens, and the base URL the endpoint is given. */
export interface WebhookAddress {
  host: string;
  /** 0: any free port. */
  port: number;
  /** Base URL (http or https, no credentials, query or fragment); default `http://HOST:PORT` as bound. */
  url?: string;
}

export const DEFAULT_WEBHOOK_ADDRESS: WebhookAddress = { host: '127.0.0.1', port: 0 };

export interface HttpWebhookReceiver extends WebhookRefusals {
  /** The URL for the jobs' `webhook`, token included: a secret. */
  readonly url: string;
  /** `url` with the token replaced by `<token>`, for messages. */
  readonly shownUrl: string;
  /** `host:port` it listens on, the port as bound. */
  readonly listening: string;
  /** From now on deliveries are answered as `cfg` says and handed to `onDelivery` (before: 503). */
  receive(cfg: ReceiverConfig, rng: RandomStream, endpointId: string, onDelivery: DeliveryListener): void;
  close(): Promise<void>;
}

const authority = (host: string, port: number): string => `${isIP(host) === 6 ? `[${host}]` : host}:${port}`;

/**
 * Listens on `at` (rejects with node's error, e.g. EADDRINUSE, when it cannot). The server and
 * its sockets do not keep the process alive: the run does while it goes on.
 */
export async function openWebhookReceiver(at: WebhookAddress = DEFAULT_WEBHOOK_ADDRESS): Promise<HttpWebhookReceiver> {
  const token = randomBytes(TOKEN_BYTES).toString('base64url');
  let deliver: ((body: Record<string, unknown>, res: ServerResponse) => void) | undefined;
  /** The two paths taken (see the top of this file), set once bound. */
  let paths: Buffer[] = [];
  const isOurs = (target: string | undefined): boolean => {
    const t = Buffer.from(target ?? '');
    return paths.some((p) => p.length === t.length && timingSafeEqual(p, t));
  };
  const server: Server = createServer((req, res) => {
    if (req.method !== 'POST' || !isOurs(req.url)) {
      r.refused++;
      return answer(req, res, 404, 'not found');
    }
    if (Number(req.headers['content-length'] ?? 0) > MAX_BODY_BYTES) {
      r.malformed++;
      return answer(req, res, 413, `body over ${MAX_BODY_BYTES} bytes`);
    }
    const parts: Buffer[] = [];
    let bytes = 0;
    let over = false;
    req.on('data', (c: Buffer) => {
      if (over) return;
      bytes += c.length;
      if (bytes <= MAX_BODY_BYTES) return void parts.push(c);
      over = true;
      r.malformed++;
      answer(req, res, 413, `body over ${MAX_BODY_BYTES} bytes`);
    });
    req.on('end', () => {
      if (over) return;
      const body = deliveryBody(Buffer.concat(parts));
      if (!body) {
        r.malformed++;
        return answer(req, res, 400, 'not a webhook delivery: a JSON object with a string id expected');
      }
      if (!deliver) return answer(req, res, 503, 'not receiving yet');
      deliver(body, res);
    });
  });
  server.on('connection', (s) => s.unref());
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(at.port, at.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  server.unref();
  const port = (server.address() as AddressInfo).port;
  const base = new URL(at.url ?? `http://${authority(at.host, port)}`);
  const prefix = base.pathname.replace(/\/+$/, '');
  const path = `${prefix}/webhook/${token}`;
  paths = [...new Set([path, `/webhook/${token}`])].map((p) => Buffer.from(p));
  const r: HttpWebhookReceiver = {
    url: `${base.origin}${path}`,
    shownUrl: `${base.origin}${prefix}/webhook/<token>`,
    listening: authority(at.host, port),
    refused: 0,
    malformed: 0,
    receive(cfg, rng, endpointId, onDelivery) {
      const attempts = new Map<string, number>();
      deliver = (body, res) => {
        const jobId = body.id as string;
        const attempt = (attempts.get(jobId) ?? 0) + 1;
        attempts.set(jobId, attempt);
        const ok = !failsAttempt(cfg, rng, attempt);
        const d: WebhookDelivery = { endpointId, jobId, url: r.shownUrl, body, attempt };
        res.writeHead(ok ? 200 : cfg.failStatus, { 'content-type': 'application/json' }).end(ok ? '{"ok":true}' : '{"ok":false}');
        onDelivery(d, ok);
      };
    },
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
  return r;
}

/** The parsed body when it is a JSON object with a string `id`; else undefined. */
function deliveryBody(raw: Buffer): Record<string, unknown> | undefined {
  try {
    const v: unknown = JSON.parse(raw.toString('utf8'));
    return typeof v === 'object' && v !== null && typeof (v as { id?: unknown }).id === 'string' ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A refusal with a JSON body. The rest of the request body is read and dropped, never kept: a
 * sender still writing it then reads the answer (a connection closed under it would be a reset).
 */
function answer(req: IncomingMessage, res: ServerResponse, status: number, error: string): void {
  const text = JSON.stringify({ error });
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)) }).end(text);
  req.resume();
}

/**
 * The receiver for a target over HTTP (`open`, or one on 127.0.0.1 and a free port). Deliveries
 * come in on their own sockets; each is handled as an event on the target's clock, so that a
 * lockstep run reads the virtual time of the attempt (the advance that made it has returned).
 */
export async function receiveOnClock(
  target: Target,
  open: HttpWebhookReceiver | undefined,
  cfg: ReceiverConfig,
  rng: RandomStream,
  onDelivery: DeliveryListener,
): Promise<HttpWebhookReceiver> {
  const r = open ?? (await openWebhookReceiver());
  r.receive(cfg, rng, target.endpointId, (d, ok) => target.at(target.now(), () => onDelivery(d, ok)));
  return r;
}
