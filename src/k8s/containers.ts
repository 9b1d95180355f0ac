/**
 * The containers of the generated pods: loadlab itself and, with S3 storage, the AWS CLI that
 * moves results, all as uid 1000 (the Dockerfile's user), so each can write what another made. Secrets enter only as secretKeyRef env:
 * the manifests name a Secret, never hold its value.
 */
import type { IContainer } from 'kubernetes-models/v1/Container';
import type { IEnvVar } from 'kubernetes-models/v1/EnvVar';
import type { ISecurityContext } from 'kubernetes-models/v1/SecurityContext';
import type { IVolumeMount } from 'kubernetes-models/v1/VolumeMount';
import { LOADLAB_JS } from './pod-commands.js';
import { SCENARIO_DIR } from './scenario-config-map.js';
import { RESULTS_DIR, type S3Access } from './storage.js';

/** The image's user (Dockerfile `USER 1000:1000`); fsGroup of the pods, so a PVC is writable. */
export const LOADLAB_UID = 1000;

/** A Secret's key: `--api-key-secret NAME[:KEY]`. */
export interface SecretRef {
  name: string;
  key: string;
}

/** JOB_COMPLETION_INDEX from the annotation the Job controller puts on each pod of an Indexed Job. */
export const INDEX_ENV: IEnvVar = {
  name: 'JOB_COMPLETION_INDEX',
  valueFrom: { fieldRef: { fieldPath: "metadata.annotations['batch.kubernetes.io/job-completion-index']" } },
};

const NON_ROOT: ISecurityContext = { runAsNonRoot: true, runAsUser: LOADLAB_UID, runAsGroup: LOADLAB_UID, allowPrivilegeEscalation: false };

const RESULTS_MOUNT: IVolumeMount = { name: 'results', mountPath: RESULTS_DIR };

export interface LoadlabContainer {
  name: string;
  image: string;
  /** The `sh -c` script around loadlab, or none: loadlab runs directly. */
  script?: string;
  args: string[];
  env: IEnvVar[];
  /** Mount the scenario ConfigMap (shards; a merge reads only results). */
  scenario: boolean;
}

export function loadlabContainer(c: LoadlabContainer): IContainer {
  return {
    name: c.name,
    image: c.image,
    command: c.script === undefined ? ['node', LOADLAB_JS] : ['/bin/sh', '-c', c.script, 'loadlab'],
    args: c.args,
    ...(c.env.length ? { env: c.env } : {}),
    volumeMounts: [...(c.scenario ? [{ name: 'scenario', mountPath: SCENARIO_DIR, readOnly: true }] : []), RESULTS_MOUNT],
    securityContext: NON_ROOT,
  };
}

/** The env of the API key: RUNPOD_API_KEY, which `loadlab run` reads when --api-key is absent. */
export function apiKeyEnv(ref: SecretRef | undefined): IEnvVar[] {
  return ref ? [{ name: 'RUNPOD_API_KEY', valueFrom: { secretKeyRef: { name: ref.name, key: ref.key } } }] : [];
}

/** An AWS CLI container running `script` with `args` (its $1, $2, …). */
export function awsContainer(name: string, s3: S3Access, script: string, args: string[], extraEnv: IEnvVar[] = []): IContainer {
  const env: IEnvVar[] = [
    ...extraEnv,
    { name: 'AWS_ACCESS_KEY_ID', valueFrom: { secretKeyRef: { name: s3.secret, key: 'AWS_ACCESS_KEY_ID' } } },
    { name: 'AWS_SECRET_ACCESS_KEY', valueFrom: { secretKeyRef: { name: s3.secret, key: 'AWS_SECRET_ACCESS_KEY' } } },
    { name: 'AWS_DEFAULT_REGION', value: s3.region },
    ...(s3.endpoint ? [{ name: 'AWS_ENDPOINT_URL', value: s3.endpoint }] : []),
  ];
  // As loadlab's user: the merge writes into the folders the download made. HOME: the CLI's
  // default ~ (/root) is not that user's.
  env.push({ name: 'HOME', value: '/tmp' });
  return { name, image: s3.image, command: ['/bin/sh', '-c', script, name], args, env, volumeMounts: [RESULTS_MOUNT], securityContext: NON_ROOT };
}
