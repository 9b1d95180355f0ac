/**
 * `loadlab k8s run|plan`'s flags, checked before anything is written: each bad value exits 2
 * naming the flag and the reason. Nothing secret may reach the manifests: `--api-key` is refused
 * (a Secret is named instead), and so is a URL with credentials (`--target`, `--s3-endpoint`).
 */
import { baseNameProblem, namespaceProblem, objectNameProblem } from '../../k8s/names.js';
import { parseStorage, type Storage } from '../../k8s/storage.js';
import type { SecretRef } from '../../k8s/containers.js';
import { displayUrl } from '../../load/targets/target-url.js';
import { CliError, EXIT } from '../exit-codes.js';

/** Most pods of one Indexed Job here (the merge lists every shard's directory). */
export const MAX_PARALLELISM = 1000;
/** Default wait between generating the manifests and the common start of a run's shards. */
export const DEFAULT_START_DELAY_S = 300;
/** `loadlab run --start-at` refuses instants further ahead than this. */
const START_AT_MAX_AHEAD_MS = 24 * 3600_000;
/** The AWS CLI image of the S3 containers (v2.13+ reads AWS_ENDPOINT_URL). */
export const DEFAULT_AWS_CLI_IMAGE = 'amazon/aws-cli:2.17.0';

export interface K8sCommonArgs {
  scenario: string;
  parallelism?: number;
  image?: string;
  storage?: string;
  namespace?: string;
  name?: string;
  out?: string;
  's3-secret'?: string;
  's3-endpoint'?: string;
  's3-region'?: string;
  'aws-cli-image'?: string;
  cpu?: string;
  memory?: string;
}

const usage = (m: string) => new CliError(m, EXIT.USAGE);

export function parallelismOf(n: number | undefined): number {
  if (n === undefined) throw usage('--parallelism: required: the number of pods (shards), e.g. --parallelism 4');
  if (!Number.isInteger(n) || n < 1 || n > MAX_PARALLELISM)
    throw usage(`--parallelism: a whole number from 1 to ${MAX_PARALLELISM}, got ${Number.isNaN(n) ? 'something that is not a number' : n}`);
  return n;
}

export function imageOf(image: string | undefined): string {
  if (!image)
    throw usage(
      "--image: required: the loadlab image the pods run (build it with the repository's Dockerfile), e.g. --image registry.example.com/loadlab:0.1.0",
    );
  if (/\s/.test(image)) throw usage(`--image: an image reference has no spaces, got ${JSON.stringify(image)}`);
  return image;
}

export function checkNames(a: { name?: string; namespace?: string }): void {
  const n = a.name === undefined ? undefined : baseNameProblem(a.name);
  if (n) throw usage(`--name: ${n}, got ${JSON.stringify(a.name)}`);
  const ns = a.namespace === undefined ? undefined : namespaceProblem(a.namespace);
  if (ns) throw usage(`--namespace: ${ns}, got ${JSON.stringify(a.namespace)}`);
}

/** --storage and the S3 flags that go with it. */
export function storageOf(a: K8sCommonArgs): Storage {
  if (!a.storage) throw usage('--storage: required: pvc:NAME (a ReadWriteMany PersistentVolumeClaim) or s3://BUCKET/PREFIX');
  const st = parseStorage(a.storage);
  if (typeof st === 'string') throw usage(`--storage: ${st}`);
  const s3Flag = (['s3-secret', 's3-endpoint', 's3-region', 'aws-cli-image'] as const).find((f) => a[f] !== undefined);
  if (st.kind === 'pvc') {
    if (s3Flag) throw usage(`--${s3Flag}: only with --storage s3://BUCKET/PREFIX`);
    return st;
  }
  const secret = a['s3-secret'];
  if (!secret)
    throw usage(
      '--s3-secret: required with --storage s3://…: the name of a Secret holding AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (kubectl create secret generic NAME --from-literal=AWS_ACCESS_KEY_ID=… --from-literal=AWS_SECRET_ACCESS_KEY=…)',
    );
  const why = objectNameProblem(secret);
  if (why) throw usage(`--s3-secret: ${why}, got ${JSON.stringify(secret)}`);
  const endpoint = a['s3-endpoint'];
  if (endpoint !== undefined) httpUrl('s3-endpoint', endpoint);
  const region = a['s3-region'] ?? 'us-east-1';
  if (!/^[a-z0-9-]+$/.test(region)) throw usage(`--s3-region: a region name such as us-east-1, got ${JSON.stringify(region)}`);
  const image = a['aws-cli-image'] ?? DEFAULT_AWS_CLI_IMAGE;
  imageOf(image);
  return { ...st, s3: { secret, region, image, ...(endpoint ? { endpoint } : {}) } };
}

/** An http(s) URL without credentials: it is written into the manifests. */
export function httpUrl(flag: string, url: string): void {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw usage(`--${flag}: not a URL: ${displayUrl(url)}`);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw usage(`--${flag}: an http:// or https:// URL, got ${displayUrl(url)}`);
  if (u.username || u.password)
    throw usage(
      `--${flag}: the URL holds credentials, which would be written into the manifests in clear; remove them (${displayUrl(url)})${flag === 'target' ? ' and name a Secret with --api-key-secret' : ' and name a Secret with --s3-secret'}`,
    );
}

/** `--api-key-secret NAME[:KEY]`, KEY defaulting to RUNPOD_API_KEY. */
export function secretRefOf(spec: string | undefined): SecretRef | undefined {
  if (spec === undefined) return undefined;
  const [name = '', key = 'RUNPOD_API_KEY', ...rest] = spec.split(':');
  const why = objectNameProblem(name);
  if (why || rest.length) throw usage(`--api-key-secret: NAME or NAME:KEY, NAME ${why ?? 'a Kubernetes object name'}, got ${JSON.stringify(spec)}`);
  if (!/^[-._a-zA-Z0-9]+$/.test(key)) throw usage(`--api-key-secret: the KEY of NAME:KEY is letters, digits, "-", "_" and ".", got ${JSON.stringify(key)}`);
  return { name, key };
}

/** The common start of a run's shards, ISO-8601 UTC: --start-at, else now + --start-delay seconds (rounded up to a second). */
export function startAtOf(startAt: string | undefined, delayS: number | undefined, nowMs: number): string {
  if (startAt !== undefined) {
    if (delayS !== undefined) throw usage('--start-delay: not with --start-at (give one of them)');
    const ms = /(Z|[+-]\d{2}:\d{2})$/.test(startAt) && /^\d{4}-\d{2}-\d{2}T/.test(startAt) ? Date.parse(startAt) : NaN;
    if (Number.isNaN(ms)) throw usage(`--start-at: an ISO-8601 date-time with a zone, e.g. 2026-05-01T12:00:00Z, got ${JSON.stringify(startAt)}`);
    if (ms <= nowMs) throw usage(`--start-at: ${startAt} has passed; the pods must start before it`);
    if (ms - nowMs > START_AT_MAX_AHEAD_MS) throw usage(`--start-at: ${startAt} is more than 24 h ahead (loadlab run refuses it)`);
    return new Date(ms).toISOString();
  }
  const d = delayS ?? DEFAULT_START_DELAY_S;
  if (!Number.isInteger(d) || d < 0 || d * 1000 > START_AT_MAX_AHEAD_MS)
    throw usage(`--start-delay: whole seconds from 0 to 86400, got ${Number.isNaN(d) ? 'something that is not a number' : d}`);
  return new Date(Math.ceil((nowMs + d * 1000) / 1000) * 1000).toISOString();
}

const QUANTITY = /^\d+(\.\d+)?(m|k|M|G|T|P|E|Ki|Mi|Gi|Ti|Pi|Ei)?$/;

/** --cpu and --memory: each shard's resource requests, as Kubernetes quantities. */
export function requestsOf(a: { cpu?: string; memory?: string }): { cpu?: string; memory?: string } | undefined {
  for (const f of ['cpu', 'memory'] as const) {
    const v = a[f];
    if (v !== undefined && !QUANTITY.test(v))
      throw usage(`--${f}: a Kubernetes quantity such as ${f === 'cpu' ? '2 or 500m' : '1Gi or 512Mi'}, got ${JSON.stringify(v)}`);
  }
  if (a.cpu === undefined && a.memory === undefined) return undefined;
  return { ...(a.cpu !== undefined ? { cpu: a.cpu } : {}), ...(a.memory !== undefined ? { memory: a.memory } : {}) };
}
