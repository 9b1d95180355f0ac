/**
 * Which webhook URLs `serve` may call. By default only loopback hosts, plus hosts named with
 * `--webhook-allow`: a simulator reachable by others must not become an open proxy that posts
 * to any address it is given. Hostnames are compared literally (no DNS lookup).
 */
export type TargetCheck = { ok: true; url: URL } | { ok: false; reason: string };

const LOOPBACK_NAMES = new Set(['localhost', '[::1]', '[::ffff:7f00:1]']);

export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.toLowerCase();
  if (LOOPBACK_NAMES.has(h) || h.endsWith('.localhost')) return true;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}

export class WebhookTargets {
  private readonly allowed: Set<string>;

  /** `allow`: extra hostnames (case-insensitive, exact match) that may receive webhooks. */
  constructor(allow: readonly string[] = []) {
    this.allowed = new Set(allow.map((h) => h.trim().toLowerCase()).filter((h) => h.length > 0));
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
    if (isLoopbackHost(host) || this.allowed.has(host)) return { ok: true, url };
    return { ok: false, reason: `target host ${host} not allowed (loopback only; add it with --webhook-allow)` };
  }
}
