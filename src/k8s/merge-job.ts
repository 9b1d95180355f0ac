/**
 * The merge Job, applied once the Indexed Job is complete (`kubectl wait --for=condition=complete`;
 * Kubernetes has no Job-after-Job ordering, and waiting inside a pod would need API access or
 * polling of the store). It runs `loadlab merge` (runs) or `loadlab plan merge` (plans) over
 * `shard-0` … `shard-<N-1>` into `merged`. With S3 the AWS CLI fetches the shards first and
 * uploads `merged` after; the merge's exit code is kept across the upload, so the Job fails with
 * exit 99 when the merged run misses a threshold (or no plan point meets the SLOs) either way.
 * Retries only for lost pods: a bad input (2) or a verdict (99) fails the Job at once.
 */
import type { IJob } from 'kubernetes-models/batch/v1/Job';
import type { IContainer } from 'kubernetes-models/v1/Container';
import { awsContainer, loadlabContainer, LOADLAB_UID } from './containers.js';
import type { K8sOptions } from './k8s-options.js';
import { labelsOf } from './labels.js';
import { objectNames } from './names.js';
import { DOWNLOAD_SCRIPT, KEEP_EXIT_SCRIPT, mergeArgs, UPLOAD_SCRIPT } from './pod-commands.js';
import { runDir, s3RunUrl } from './storage.js';

export const MERGE_BACKOFF_LIMIT = 2;

export function mergeJob(o: K8sOptions): IJob {
  const names = objectNames(o.base);
  const labels = labelsOf(o.base, 'merge');
  const dir = runDir(o.base);
  const args = mergeArgs(o.mode, dir, o.shards);
  const st = o.storage;
  let containers: { initContainers?: IContainer[]; containers: IContainer[] };
  if (st.kind === 'pvc') {
    containers = { containers: [loadlabContainer({ name: 'merge', image: o.image, args, env: [], scenario: false })] };
  } else {
    const exitFile = `${dir}/merge-exit-code`;
    const url = s3RunUrl(st, o.base);
    containers = {
      initContainers: [
        awsContainer('download', st.s3, DOWNLOAD_SCRIPT, [`${url}/`, `${dir}/`]),
        loadlabContainer({
          name: 'merge',
          image: o.image,
          script: KEEP_EXIT_SCRIPT,
          args,
          env: [{ name: 'LOADLAB_EXIT_FILE', value: exitFile }],
          scenario: false,
        }),
      ],
      containers: [awsContainer('upload', st.s3, UPLOAD_SCRIPT, [`${dir}/merged`, `${url}/merged`, exitFile])],
    };
  }
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name: names.mergeJob, ...(o.namespace ? { namespace: o.namespace } : {}), labels },
    spec: {
      backoffLimit: MERGE_BACKOFF_LIMIT,
      podFailurePolicy: { rules: [{ action: 'FailJob', onExitCodes: { operator: 'In', values: [2, 99] } }] },
      template: {
        metadata: { labels },
        spec: {
          restartPolicy: 'Never',
          securityContext: { fsGroup: LOADLAB_UID },
          ...containers,
          volumes: [st.kind === 'pvc' ? { name: 'results', persistentVolumeClaim: { claimName: st.claim } } : { name: 'results', emptyDir: {} }],
        },
      },
    },
  };
}
