/**
 * The ConfigMap that carries the scenario file, byte for byte, and the replay traces it names,
 * mounted read-only at SCENARIO_DIR with each file at its path relative to the scenario, so the
 * loader finds the traces where the scenario says. UTF-8 text goes under `data`; anything else
 * under `binaryData` (base64), so no byte changes either way.
 */
import type { IConfigMap } from 'kubernetes-models/v1/ConfigMap';
import type { IVolume } from 'kubernetes-models/v1/Volume';
import type { Labels } from './labels.js';

export const SCENARIO_DIR = '/scenario';

/**
 * Most bytes of files one ConfigMap carries: the API server refuses objects over 1 MiB
 * (1 048 576 bytes), names and metadata included, so this leaves room for them.
 */
export const CONFIG_MAP_MAX_BYTES = 1_000_000;

export interface ScenarioFile {
  /** ConfigMap key: `[-._a-zA-Z0-9]+`. */
  key: string;
  /** Path under SCENARIO_DIR, relative, no `..`. */
  path: string;
  bytes: Uint8Array;
}

export function scenarioConfigMap(name: string, namespace: string | undefined, labels: Labels, files: readonly ScenarioFile[]): IConfigMap {
  const data: Record<string, string> = {};
  const binaryData: Record<string, string> = {};
  for (const f of files) {
    const buf = Buffer.from(f.bytes);
    const text = buf.toString('utf8');
    if (Buffer.from(text, 'utf8').equals(buf)) data[f.key] = text;
    else binaryData[f.key] = buf.toString('base64');
  }
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name, ...(namespace ? { namespace } : {}), labels },
    data,
    ...(Object.keys(binaryData).length ? { binaryData } : {}),
  };
}

/** The volume of the ConfigMap, each key at its path. */
export function scenarioVolume(configMap: string, files: readonly ScenarioFile[]): IVolume {
  return { name: 'scenario', configMap: { name: configMap, items: files.map((f) => ({ key: f.key, path: f.path })) } };
}

/** Total bytes of the files, for the size check against CONFIG_MAP_MAX_BYTES. */
export function filesBytes(files: readonly ScenarioFile[]): number {
  return files.reduce((n, f) => n + f.bytes.byteLength, 0);
}
