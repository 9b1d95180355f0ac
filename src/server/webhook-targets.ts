/**
 * Which webhook URLs `serve` may call. By default only loopback, plus hosts named with
 * `--webhook-allow`: a simulator reachable by others must not become an open proxy that posts
 * to any address it is given.
 *
 * Two checks, both by parsing addresses (never by string prefix):
 * - the URL (`check`): an IP literal must be loopback (127.0.0.0/8, ::1, ::ffff:127.x.y.z) or
 *   allowed; a name must be `localhost`, end in `.localhost`, or be allowed;
 * - the connection (`guardLookup`): every address a name resolves to, at connect time, must be
 *   loopback or an allowed IP, unless the name itself was allowed. A `*.localhost` name whose DNS
 *   answer points elsewhere is refused; the check runs inside the socket's own lookup, so there is
 *   no window between checking an address and connecting to another one.
 */
import type { LookupAddress, LookupOptions } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { LoadlabError } from '../contract/loadlab-error.js';
import { canonicalIp, isLoopbackAddress, isLoopbackHost } from '../lib/ip-address.js';

export type TargetCheck = { ok: true; url: URL } | { ok: false; reason: string };

/** Thrown (through the socket's lookup) when a name resolves to an address webhooks may not reach. */
export class RefusedAddressError extends LoadlabError {
  constructor(message: string) {
    super('LOADLAB_ERR_WEBHOOK_ADDRESS', message);
  }
}

export class WebhookTargets {
  private readonly allowedNames: Set<string>;
  private readonly allowedIps: Set<string>;

  /** `allow`: extra hostnames or IP addresses (case-insensitive, exact match) that may receive webhooks. */
  constructor(allow: readonly string[] = []) {
    const hosts = allow.map((h) => h.trim().toLowerCase()).filter((h) => h.length > 0);
    this.allowedNames = new Set(hosts.filter((h) => canonicalIp(h) === undefined));
    this.allowedIps = new Set(hosts.flatMap((h) => canonicalIp(h) ?? []));
  }

  check(raw: string): TargetCheck {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      return { ok: false, reason: 'invalid URL' };
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return { ok: false, reason: `protocol ${url.protocol} not allowed (http or https only)` };
    const host = url.hostname.toLowerCase();
    const ip = canonicalIp(host);
    const ok = ip !== undefined ? isLoopbackAddress(host) || this.allowedIps.has(ip) : isLoopbackHost(host) || this.allowedNames.has(host);
    if (ok) return { ok: true, url };
    return { ok: false, reason: `target host ${host} not allowed (loopback only; add it with --webhook-allow)` };
  }

  /** Whether a name may connect to an address it resolved to. */
  addressAllowed(hostname: string, address: string): boolean {
    if (this.allowedNames.has(hostname.toLowerCase())) return true;
    const ip = canonicalIp(address);
    return ip !== undefined && (isLoopbackAddress(address) || this.allowedIps.has(ip));
  }

  /**
   * A socket `lookup` that resolves with `resolve` (every address, whatever the caller asked for)
   * and fails with RefusedAddressError unless each one is allowed for that name.
   */
  guardLookup(resolve: LookupFunction): LookupFunction {
    return (hostname: string, options: LookupOptions, callback) => {
      resolve(hostname, { ...options, all: true }, (err, found) => {
        if (err) return callback(err, '', 0);
        const list: LookupAddress[] = typeof found === 'string' ? [{ address: found, family: isIP(found) }] : found;
        const bad = list.find((a) => !this.addressAllowed(hostname, a.address));
        if (bad || list.length === 0) {
          const why = bad ? `resolved to ${bad.address}` : 'resolved to no address';
          return callback(new RefusedAddressError(`target host ${hostname} ${why} (loopback only; add it with --webhook-allow)`), '', 0);
        }
        if (options.all) return callback(null, list);
        callback(null, list[0]!.address, list[0]!.family);
      });
    };
  }
}
