/**
 * `loadlab k8s run`'s webhook flags. Each shard pod runs its own receiver, with its own random
 * token, so the endpoint must be given a URL per pod: `--webhook-port PORT` makes every pod listen
 * on 0.0.0.0:PORT and hand the endpoint `http://<pod IP>:PORT` (the pod's IP from the downward
 * API, expanded by Kubernetes in the arguments): for an endpoint that reaches the pods' network.
 * `--webhook-url URL` instead names a URL per pod with `$(JOB_COMPLETION_INDEX)` in it (an
 * Ingress or tunnel routed to pod I). One URL for all the pods could reach one receiver at best:
 * refused. A scenario with run-webhook flows needs `--webhook-port`; one without refuses both.
 * Every refusal is exit 2 naming the flag.
 */
import type { IEnvVar } from 'kubernetes-models/v1/EnvVar';
import type { Scenario } from '../../load/scenario/schema.js';
import { displayUrl } from '../../load/targets/target-url.js';
import type { PassFlags } from '../../k8s/pod-commands.js';
import { INDEX } from '../../k8s/pod-commands.js';
import { CliError, EXIT } from '../exit-codes.js';

export interface K8sWebhookArgs {
  'webhook-port'?: number;
  'webhook-url'?: string;
}

/** The pod's IP, for `$(POD_IP)` in the arguments. */
export const POD_IP_ENV: IEnvVar = { name: 'POD_IP', valueFrom: { fieldRef: { fieldPath: 'status.podIP' } } };

const usage = (m: string) => new CliError(m, EXIT.USAGE);

/** The flags every shard's `loadlab run` gets, and the env they need; none without webhook flows. */
export function k8sWebhooksOf(a: K8sWebhookArgs, sc: Scenario, file: string): { flags: PassFlags; env: IEnvVar[] } {
  const port = a['webhook-port'];
  const url = a['webhook-url'];
  const flows = sc.traffic.some((f) => f.client.behaviour === 'run-webhook');
  if (!flows) {
    if (port !== undefined || url !== undefined)
      throw usage(`--${port !== undefined ? 'webhook-port' : 'webhook-url'}: ${file} has no run-webhook flow, so nothing would be delivered to the pods`);
    return { flags: [], env: [] };
  }
  if (port === undefined)
    throw usage(
      `--webhook-port: required: ${file} has run-webhook flows, and each shard pod receives its own jobs' webhooks; give --webhook-port PORT (the endpoint is given http://<pod IP>:PORT) and, when the endpoint cannot reach the pods' IPs, --webhook-url with $(JOB_COMPLETION_INDEX) in it`,
    );
  if (!(Number.isInteger(port) && port >= 1 && port <= 65535))
    throw usage(`--webhook-port: a port from 1 to 65535, got ${Number.isNaN(port) ? 'something that is not a number' : port}`);
  if (url !== undefined) checkPerPodUrl(url);
  const listen: PassFlags = [['webhook-listen', `0.0.0.0:${port}`]];
  if (url !== undefined) return { flags: [...listen, ['webhook-url', url]], env: [] };
  return { flags: [...listen, ['webhook-url', `http://$(POD_IP):${port}`]], env: [POD_IP_ENV] };
}

function checkPerPodUrl(url: string): void {
  if (!url.includes(INDEX))
    throw usage(
      `--webhook-url: every pod runs its own receiver with its own token, so one URL for all of them reaches one pod at best; put ${INDEX} in it, which each pod expands to its index (e.g. https://hooks-${INDEX}.example.com, routed to pod I's --webhook-port), got ${displayUrl(url)}`,
    );
  let u: URL;
  try {
    u = new URL(url.replaceAll(INDEX, '0'));
  } catch {
    throw usage(`--webhook-url: not a URL: ${displayUrl(url)}`);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw usage(`--webhook-url: an http:// or https:// URL, got ${displayUrl(url)}`);
  if (u.username || u.password) throw usage(`--webhook-url: no user name or password in the URL (it is written into the manifests), got ${displayUrl(url)}`);
  if (u.search || u.hash) throw usage(`--webhook-url: no query or fragment (the receiver adds /webhook/<token> to the path), got ${displayUrl(url)}`);
}
