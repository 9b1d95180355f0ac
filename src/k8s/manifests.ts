/**
 * The two files `loadlab k8s` writes: shards.yaml (the scenario's ConfigMap and the Indexed Job),
 * applied first, and merge.yaml (the merge Job), applied once the Indexed Job is complete.
 */
import type { IConfigMap } from 'kubernetes-models/v1/ConfigMap';
import type { IJob } from 'kubernetes-models/batch/v1/Job';
import { stringify } from 'yaml';
import type { K8sOptions } from './k8s-options.js';
import { labelsOf } from './labels.js';
import { mergeJob } from './merge-job.js';
import { objectNames } from './names.js';
import { scenarioConfigMap } from './scenario-config-map.js';
import { shardsJob } from './shards-job.js';

export interface Manifests {
  /** ConfigMap, then the Indexed Job. */
  shards: [IConfigMap, IJob];
  merge: IJob;
}

export function buildManifests(o: K8sOptions): Manifests {
  const names = objectNames(o.base);
  return {
    shards: [scenarioConfigMap(names.configMap, o.namespace, labelsOf(o.base, 'scenario'), o.files), shardsJob(o)],
    merge: mergeJob(o),
  };
}

/** Objects as one YAML stream (`---` between documents): no anchors or aliases, long lines never folded. */
export function renderYaml(objects: readonly object[]): string {
  return objects.map((x) => stringify(x, { lineWidth: 0, aliasDuplicateObjects: false })).join('---\n');
}
