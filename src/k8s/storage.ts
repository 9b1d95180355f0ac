/**
 * Where the shards' results go: `pvc:NAME`, a PersistentVolumeClaim (ReadWriteMany: pods on
 * different nodes write at once) mounted at RESULTS_DIR, or `s3://BUCKET/PREFIX`, any
 * S3-compatible store, reached by an AWS CLI container (the loadlab image has no S3 client).
 * Either way one generated run keeps its files under `<base name>/`: `shard-0` … `shard-<N-1>`
 * and `merged`.
 */
import { objectNameProblem } from './names.js';

/** Where the loadlab containers read and write results. */
export const RESULTS_DIR = '/results';

export type Storage = { kind: 'pvc'; claim: string } | { kind: 's3'; bucket: string; prefix: string; s3: S3Access };

/** How the AWS CLI reaches the store. Credentials never appear here: only the Secret's name. */
export interface S3Access {
  /** Secret holding AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY. */
  secret: string;
  /** Endpoint of a store other than AWS S3 (MinIO, R2, …); AWS_ENDPOINT_URL in the pod. */
  endpoint?: string;
  region: string;
  /** The AWS CLI image (v2.13 or later: it reads AWS_ENDPOINT_URL). */
  image: string;
}

const BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;

/** `pvc:NAME` or `s3://BUCKET[/PREFIX]` without its S3 access yet, or why not. */
export function parseStorage(spec: string): { kind: 'pvc'; claim: string } | { kind: 's3'; bucket: string; prefix: string } | string {
  if (spec.startsWith('pvc:')) {
    const claim = spec.slice(4);
    const why = objectNameProblem(claim);
    return why ? `pvc:NAME: the claim name ${JSON.stringify(claim)} is not ${why}` : { kind: 'pvc', claim };
  }
  const m = /^s3:\/\/([^/]+)\/?(.*)$/.exec(spec);
  if (!m) return `pvc:NAME (a ReadWriteMany PersistentVolumeClaim) or s3://BUCKET/PREFIX, got ${JSON.stringify(spec)}`;
  const [, bucket, rawPrefix] = m as unknown as [string, string, string];
  if (!BUCKET.test(bucket)) return `s3://BUCKET/PREFIX: ${JSON.stringify(bucket)} is not a bucket name (3 to 63 lower-case letters, digits, "." and "-")`;
  const prefix = rawPrefix.replace(/\/+$/, '');
  if (prefix !== '' && prefix.split('/').some((p) => p === '' || p === '.' || p === '..'))
    return `s3://BUCKET/PREFIX: the prefix ${JSON.stringify(rawPrefix)} has an empty, "." or ".." part`;
  return { kind: 's3', bucket, prefix };
}

/** The run's directory inside the pods. */
export function runDir(base: string): string {
  return `${RESULTS_DIR}/${base}`;
}

/** The run's folder in the bucket, `s3://bucket/prefix/<base>`. */
export function s3RunUrl(st: { bucket: string; prefix: string }, base: string): string {
  return `s3://${st.bucket}/${st.prefix ? `${st.prefix}/` : ''}${base}`;
}
