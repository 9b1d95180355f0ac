/**
 * The Indexed Job: N pods (`completions = parallelism = N`), pod I runs shard I of N. With a PVC
 * loadlab writes straight to it; with S3 loadlab runs as an init container into an emptyDir and
 * the AWS CLI container uploads its directory when it is done.
 *
 * The pods are spread over nodes where the scheduler can (one shard per node first, never
 * refused for it): load from one node is what sharding is meant to avoid.
 *
 * Retries: a run shard is never retried (backoffLimit 0): a second attempt would send its slice
 * again, late and on top of the first, so a lost pod fails the Job and the run is repeated whole.
 * A plan shard is deterministic and sends nothing: up to PLAN_BACKOFF_LIMIT retries for lost pods,
 * none for a bad scenario or flag (exit 2).
 */
import type { IJob } from 'kubernetes-models/batch/v1/Job';
import type { IContainer } from 'kubernetes-models/v1/Container';
import type { IPodSpec } from 'kubernetes-models/v1/PodSpec';
import type { IVolume } from 'kubernetes-models/v1/Volume';
import { apiKeyEnv, awsContainer, INDEX_ENV, loadlabContainer, LOADLAB_UID } from './containers.js';
import type { K8sOptions } from './k8s-options.js';
import { labelsOf } from './labels.js';
import { objectNames } from './names.js';
import { INDEX, SHARD_SCRIPT, shardPlanArgs, shardRunArgs, UPLOAD_SCRIPT } from './pod-commands.js';
import { SCENARIO_DIR, scenarioVolume } from './scenario-config-map.js';
import { runDir, s3RunUrl } from './storage.js';

export const PLAN_BACKOFF_LIMIT = 3;

export function shardsJob(o: K8sOptions): IJob {
  const names = objectNames(o.base);
  const labels = labelsOf(o.base, 'shards');
  const outDir = `${runDir(o.base)}/shard-${INDEX}`;
  const scenarioPath = `${SCENARIO_DIR}/${o.files[0]!.path}`;
  const args =
    o.mode === 'run'
      ? shardRunArgs({ scenarioPath, shards: o.shards, target: o.target!, startAt: o.startAt!, outDir, flags: o.flags })
      : shardPlanArgs({ scenarioPath, shards: o.shards, outDir, flags: o.flags });
  const loadlab = loadlabContainer({
    name: 'loadlab',
    image: o.image,
    script: SHARD_SCRIPT,
    args,
    scenario: true,
    env: [INDEX_ENV, { name: 'LOADLAB_SHARDS', value: String(o.shards) }, ...(o.mode === 'run' ? [...apiKeyEnv(o.apiKeySecret), ...(o.env ?? [])] : [])],
  });
  if (o.requests) loadlab.resources = { requests: { ...o.requests } };
  const st = o.storage;
  const containers: { initContainers?: IContainer[]; containers: IContainer[] } =
    st.kind === 'pvc'
      ? { containers: [loadlab] }
      : {
          initContainers: [loadlab],
          containers: [awsContainer('upload', st.s3, UPLOAD_SCRIPT, [outDir, `${s3RunUrl(st, o.base)}/shard-${INDEX}`], [INDEX_ENV])],
        };
  const volumes: IVolume[] = [
    scenarioVolume(names.configMap, o.files),
    st.kind === 'pvc' ? { name: 'results', persistentVolumeClaim: { claimName: st.claim } } : { name: 'results', emptyDir: {} },
  ];
  const pod: IPodSpec = {
    restartPolicy: 'Never',
    securityContext: { fsGroup: LOADLAB_UID },
    topologySpreadConstraints: [
      { maxSkew: 1, topologyKey: 'kubernetes.io/hostname', whenUnsatisfiable: 'ScheduleAnyway', labelSelector: { matchLabels: labels } },
    ],
    ...containers,
    volumes,
  };
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name: names.shardsJob, ...(o.namespace ? { namespace: o.namespace } : {}), labels },
    spec: {
      completionMode: 'Indexed',
      completions: o.shards,
      parallelism: o.shards,
      ...(o.mode === 'run'
        ? { backoffLimit: 0 }
        : { backoffLimit: PLAN_BACKOFF_LIMIT, podFailurePolicy: { rules: [{ action: 'FailJob', onExitCodes: { operator: 'In', values: [2] } }] } }),
      template: { metadata: { labels }, spec: pod },
    },
  };
}
