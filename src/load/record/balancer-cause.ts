/**
 * Which of a load-balancing endpoint's own answers a response is (docs/api.md "Load-balancing
 * endpoints"): the balancer ended the request rather than a worker answering it. Read from the
 * status and the body `{"error": message}`: 503 "no workers available" (RunPod's body), 504 a
 * request that ran too long, 502 a worker that dropped it, 400 `worker_timeout` and 404
 * `affinity_worker_gone` (strict affinity). A 502 or 504 is taken as the balancer's whatever its
 * body (a gateway's statuses); a custom worker's own 503, 400 or 404 is not, unless it says the
 * balancer's words.
 */
import type { BalancerCause } from '../../contract/sim-events.js';
import type { TargetResponse } from '../targets/target.js';

export function balancerCause(res: TargetResponse): BalancerCause | undefined {
  const s = res.status;
  if (s === 502) return 'dropped';
  if (s === 504) return 'timeout';
  if (s !== 503 && s !== 400 && s !== 404) return undefined;
  const e = (res.body as { error?: unknown } | undefined)?.error;
  if (typeof e !== 'string') return undefined;
  if (s === 503) return e === 'no workers available' ? 'no-workers' : undefined;
  if (s === 400) return e === 'worker_timeout' ? 'worker-timeout' : undefined;
  return e === 'affinity_worker_gone' ? 'worker-gone' : undefined;
}
