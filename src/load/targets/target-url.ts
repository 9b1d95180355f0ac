/**
 * What the runner decides from a target URL, and how it shows one.
 * - Loopback is decided from the parsed host (isLoopbackHost, lib/ip-address.ts, the rule `serve`'s
 *   webhook check uses too): `localhost` or `*.localhost`, an IPv4 address in 127.0.0.0/8, `::1`
 *   or an IPv4-mapped `::ffff:127.x.x.x`. A name that merely starts with `127.` (`127.evil.com`)
 *   is a remote host.
 * - A URL is shown without its userinfo (`http://user:secret@host/` → `http://host/`) in reports,
 *   metrics, logs and errors: credentials never leave the command line.
 */
import { isLoopbackHost } from '../../lib/ip-address.js';

/** True when `url` parses and its host is loopback (see isLoopbackHost); false for anything else. */
export function isLoopback(url: string): boolean {
  try {
    return isLoopbackHost(new URL(url).hostname);
  } catch {
    return false;
  }
}

/** `url` without user name and password; unchanged when it has none. Never throws. */
export function displayUrl(url: string): string {
  try {
    const u = new URL(url);
    if (!u.username && !u.password) return url;
    u.username = '';
    u.password = '';
    return u.href;
  } catch {
    // Not a URL: still cut anything that looks like userinfo.
    return url.replace(/\/\/[^/?#]*@/g, '//');
  }
}

/** Every occurrence of `url` in `text` replaced by its display form (error messages that quote it). */
export function redactUrl(text: string, url: string | undefined): string {
  if (!url) return text;
  const shown = displayUrl(url);
  return shown === url ? text : text.split(url).join(shown);
}
