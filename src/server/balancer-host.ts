/**
 * Where serve takes a load-balancing endpoint's requests (docs/serve.md): at its base
 * `http://HOST:PORT/lb/{id}` (the Api's own path), and from any request whose `Host` is
 * `{id}.api.runpod.ai` (RunPod's address of the endpoint), whatever its path: that request's path
 * goes under `/lb/{id}`, so a client configured for RunPod reaches serve unchanged (with a
 * resolver or proxy sending the name there).
 */
import { balancerPath } from '../api/route-table.js';

/** RunPod's host of a load-balancing endpoint: `{endpoint_id}` + this. */
export const RUNPOD_LB_HOST_SUFFIX = '.api.runpod.ai';

/**
 * Maps a request's `Host` onto a load-balancing endpoint's path; undefined when the host is not
 * `{id}.api.runpod.ai`. Host names are case-insensitive: the label is matched to a configured id
 * regardless of case (`ids`: lower-case id → id); an unknown one is passed as written (404).
 */
export class BalancerHosts {
  private readonly byLower: ReadonlyMap<string, string>;

  constructor(ids: Iterable<string>) {
    this.byLower = new Map([...ids].map((id) => [id.toLowerCase(), id]));
  }

  /** `/lb/{id}` + `path` for a host `{id}.api.runpod.ai[:port]`, else undefined. */
  pathFor(host: string | undefined, path: string): string | undefined {
    if (host === undefined) return undefined;
    let name = stripPort(host).toLowerCase();
    if (name.endsWith('.')) name = name.slice(0, -1); // a fully qualified name
    if (!name.endsWith(RUNPOD_LB_HOST_SUFFIX) || name.length === RUNPOD_LB_HOST_SUFFIX.length) return undefined;
    const label = name.slice(0, -RUNPOD_LB_HOST_SUFFIX.length);
    return balancerPath(this.byLower.get(label) ?? label, path);
  }
}

/** `name:port` → `name` (a bracketed IPv6 literal never ends in the suffix anyway). */
function stripPort(host: string): string {
  const c = host.lastIndexOf(':');
  return c < 0 || host.includes(']', c) ? host : host.slice(0, c);
}
