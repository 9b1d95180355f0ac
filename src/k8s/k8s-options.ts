/**
 * Everything `loadlab k8s run|plan` turns into manifests, checked by the CLI before it gets here.
 */
import type { IEnvVar } from 'kubernetes-models/v1/EnvVar';
import type { SecretRef } from './containers.js';
import type { PassFlags } from './pod-commands.js';
import type { ScenarioFile } from './scenario-config-map.js';
import type { Storage } from './storage.js';

export interface K8sOptions {
  mode: 'run' | 'plan';
  /** Base of every object's name (names.ts). */
  base: string;
  namespace?: string;
  /** Pods of the Indexed Job: completions = parallelism = shards. */
  shards: number;
  image: string;
  storage: Storage;
  /** The scenario first (its key is `scenario.yaml` or `scenario.json`), then replay traces. */
  files: readonly ScenarioFile[];
  /** run only: base URL of the target, without credentials. */
  target?: string;
  /** run only: common start instant of every shard, ISO-8601 UTC. */
  startAt?: string;
  apiKeySecret?: SecretRef;
  /** Resource requests of each shard's loadlab container (Kubernetes quantities: `2`, `500m`, `1Gi`). */
  requests?: { cpu?: string; memory?: string };
  /** Flags passed to every shard's `loadlab run` or `loadlab plan`. */
  flags: PassFlags;
  /** run only: more env of each shard's loadlab container (the pod's IP for `--webhook-url`). */
  env?: readonly IEnvVar[];
}
