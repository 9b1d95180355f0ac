/**
 * `loadlab run --target`'s webhook receiver flags, so that a real endpoint can deliver to it:
 * - `--webhook-listen HOST:PORT`: where the receiver listens (default 127.0.0.1, a free port);
 * - `--webhook-url URL`: the base URL the endpoint is given (a tunnel's, or this machine's public
 *   address); the receiver appends `/webhook/<token>` (load/targets/http/webhook-receiver.ts).
 *   Default: `http://HOST:PORT` of the listener, which a wildcard host (0.0.0.0, ::) does not
 *   name: then it must be given.
 * A bad value exits 2 naming the flag before the scenario is read; a port that cannot be bound,
 * before any request is sent.
 */
import type { Writable } from 'node:stream';
import type { Argv } from 'yargs';
import type { Scenario } from '../../load/scenario/schema.js';
import { displayUrl } from '../../load/targets/target-url.js';
import {
  DEFAULT_WEBHOOK_ADDRESS,
  MAX_BODY_BYTES,
  openWebhookReceiver,
  type HttpWebhookReceiver,
  type WebhookAddress,
} from '../../load/targets/http/webhook-receiver.js';
import { canonicalIp } from '../../lib/ip-address.js';
import { CliError } from '../exit-codes.js';
import { authority, parseListenAddress } from '../live-metrics/listen-address.js';

export interface WebhookArgs {
  target?: string;
  'webhook-listen'?: string;
  'webhook-url'?: string;
}

const LISTEN = '--webhook-listen';
const URL_FLAG = '--webhook-url';

/** 0.0.0.0 or :: (every address of the machine): no URL to derive. */
const isWildcard = (host: string): boolean => {
  const ip = canonicalIp(host);
  return ip === '0.0.0.0' || ip === '0:0:0:0:0:0:0:0';
};

/** The receiver's address from the flags, checked (exit 2); undefined when neither flag is given. */
export function webhookAddressOf(a: WebhookArgs): WebhookAddress | undefined {
  const listen = a['webhook-listen'];
  const url = a['webhook-url'];
  if (listen === undefined && url === undefined) return undefined;
  if (!a.target) {
    throw new CliError(
      `${listen !== undefined ? LISTEN : URL_FLAG}: only with --target: on the embedded simulator the webhook receiver is a function in the run, with no address`,
    );
  }
  const at = listen === undefined ? DEFAULT_WEBHOOK_ADDRESS : parseListenAddress(String(listen), LISTEN);
  if (url !== undefined) return { ...at, url: checkBaseUrl(String(url)) };
  if (isWildcard(at.host)) {
    throw new CliError(
      `${LISTEN}: ${authority(at.host, at.port)} listens on every address of this machine, so it names none the endpoint could reach: give ${URL_FLAG} too (e.g. http://<public address>:${at.port || 'PORT'}, or a tunnel's https:// URL)`,
    );
  }
  return at;
}

/** A base URL the endpoint can be given: http or https, no credentials, query or fragment. */
function checkBaseUrl(value: string): string {
  let u: URL;
  try {
    u = new URL(value);
  } catch {
    throw new CliError(`${URL_FLAG}: not a URL: ${JSON.stringify(displayUrl(value))}; e.g. https://abc.trycloudflare.com or http://203.0.113.7:8099`);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new CliError(`${URL_FLAG}: an http:// or https:// URL, got ${displayUrl(value)}`);
  if (u.username || u.password)
    throw new CliError(
      `${URL_FLAG}: no user name or password in the URL (the token the receiver adds to its path is what authenticates a delivery), got ${displayUrl(value)}`,
    );
  if (u.search || u.hash) throw new CliError(`${URL_FLAG}: no query or fragment (the receiver adds /webhook/<token> to the path), got ${value}`);
  return u.href;
}

/**
 * The receiver for a run over `--target` with `at` from the flags (undefined: not given; the
 * target opens its default one). Listening fails → exit 2 naming --webhook-listen; a scenario
 * with no run-webhook flow has nothing to receive → exit 2. Prints where it listens and what the
 * endpoint is given (the token hidden) to `log`.
 */
export async function openWebhooks(sc: Scenario, file: string, at: WebhookAddress | undefined, log: Writable): Promise<HttpWebhookReceiver | undefined> {
  if (at === undefined) return undefined;
  if (!sc.traffic.some((f) => f.client.behaviour === 'run-webhook')) {
    throw new CliError(`${at.url === undefined ? LISTEN : URL_FLAG}: ${file} has no run-webhook flow, so nothing would be delivered to the receiver`);
  }
  const where = authority(at.host, at.port);
  const r = await openWebhookReceiver(at).catch((e: NodeJS.ErrnoException) => {
    throw new CliError(
      e.code === 'EADDRINUSE'
        ? `${LISTEN}: ${where} is in use (another process listens there); choose another port, or :0 for any free one`
        : e.code === 'EADDRNOTAVAIL'
          ? `${LISTEN}: ${at.host} is not an address of this machine`
          : `${LISTEN}: cannot listen on ${where}: ${e.code ?? e.message}`,
    );
  });
  log.write(`loadlab: webhook receiver on ${r.listening}; the endpoint is given ${r.shownUrl}\n`);
  return r;
}

/** Adds --webhook-listen and --webhook-url to `loadlab run`. */
export function webhookOptions<T>(y: Argv<T>): Argv<T & WebhookArgs> {
  return y
    .option('webhook-listen', {
      type: 'string',
      describe:
        'With --target: where the webhook receiver of run-webhook flows listens, HOST:PORT (":PORT" is 127.0.0.1; port 0 picks one; default 127.0.0.1 and a free port). 0.0.0.0:PORT listens on every address: give --webhook-url too',
    })
    .option('webhook-url', {
      type: 'string',
      describe: `With --target: the base URL the endpoint POSTs webhooks to, reaching the --webhook-listen address (a tunnel's https://… or http://PUBLIC-IP:PORT; default http://HOST:PORT of --webhook-listen). The receiver adds /webhook/<token> to its path, a random token that is the only authentication and is never shown; it takes only POST there, bodies up to ${MAX_BODY_BYTES / 1024 / 1024} MiB, and answers anything else 404`,
    }) as Argv<T & WebhookArgs>;
}
