/**
 * Where `loadlab run --target URL` sends a load-balancing endpoint's requests (docs/run.md
 * "Load-balancing endpoints"). RunPod serves such an endpoint at its own host,
 * `https://{endpoint_id}.api.runpod.ai/{path}`; `loadlab serve` at `http://HOST:PORT/lb/{id}/{path}`.
 * `--target` may name either the API (the endpoint's base is derived from the endpoint id) or the
 * endpoint's base itself:
 *
 * | `--target` | load-balancing base | `/v2` base (`/health`) |
 * |---|---|---|
 * | `https://api.runpod.ai` (or `…/v2`) | `https://{id}.api.runpod.ai` | `https://api.runpod.ai/v2` |
 * | `http://127.0.0.1:8080/v2` (serve's first line) | `http://127.0.0.1:8080/lb/{id}` | as given |
 * | `https://{x}.api.runpod.ai` | as given | `https://api.runpod.ai/v2` |
 * | `http://127.0.0.1:8080/lb/{x}` | as given | `http://127.0.0.1:8080/v2` |
 * | anything else (`https://lb.example.com/base`) | as given | `{url}/v2` |
 */
import { InternalError } from '../../contract/loadlab-error.js';

/** RunPod's API host; a load-balancing endpoint is served at `{id}.` + this. */
export const RUNPOD_API_HOST = 'api.runpod.ai';

export interface BalancerUrls {
  /** The endpoint's base: a request's path goes after it. No trailing slash. */
  balancer: string;
  /** The `/v2` base of the same deployment, for `/v2/{id}/health` (what `splitBase` takes). */
  queue: string;
}

export function balancerUrls(target: string, endpointId: string): BalancerUrls {
  let u: URL;
  try {
    u = new URL(target);
  } catch {
    throw new InternalError(`not a URL: ${target}`);
  }
  const path = u.pathname.replace(/\/+$/, '');
  const base = `${u.protocol}//${u.host}`;
  const host = u.hostname.toLowerCase();
  if (host === RUNPOD_API_HOST) return { balancer: `${u.protocol}//${endpointId}.${u.host}`, queue: `${base}/v2` };
  if (host.endsWith(`.${RUNPOD_API_HOST}`)) return { balancer: base + path, queue: `${u.protocol}//${RUNPOD_API_HOST}${u.port ? `:${u.port}` : ''}/v2` };
  if (path.endsWith('/v2')) return { balancer: `${base}${path.slice(0, -3)}/lb/${endpointId}`, queue: base + path };
  const lb = /^(.*)\/lb\/[^/]+$/.exec(path);
  if (lb) return { balancer: base + path, queue: `${base}${lb[1]}/v2` };
  return { balancer: base + path, queue: `${base + path}/v2` };
}
