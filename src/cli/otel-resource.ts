/**
 * The resource detectors the OpenTelemetry SDK runs, with the process detector cut down to an
 * allow-list. The SDK's own process detector exports `process.command_args` (the whole argv) and
 * `process.command`, so `--api-key K` or `--target http://user:pass@…` would reach the collector in
 * every batch. Selection follows OTEL_NODE_RESOURCE_DETECTORS as the SDK does (`env`, `host`, `os`,
 * `process`, `serviceinstance`, `all`, `none`; default `env,process,host`).
 */
import { resources } from '@opentelemetry/sdk-node';

type Detector = resources.ResourceDetector;

/** Process attributes that describe the runtime, never what it was asked to do. */
const PROCESS_ATTRIBUTES_KEPT = new Set([
  'process.pid',
  'process.executable.name',
  'process.executable.path',
  'process.owner',
  'process.runtime.name',
  'process.runtime.version',
  'process.runtime.description',
]);

/** The SDK's process detector without the command line (nor any attribute it may add later). */
export const processDetectorWithoutCommand: Detector = {
  detect(config) {
    const found = resources.processDetector.detect(config);
    const attributes: resources.DetectedResourceAttributes = {};
    for (const [k, v] of Object.entries(found.attributes ?? {})) if (PROCESS_ATTRIBUTES_KEPT.has(k)) attributes[k] = v;
    return { ...found, attributes };
  },
};

const BY_NAME: Record<string, Detector> = {
  env: resources.envDetector,
  host: resources.hostDetector,
  os: resources.osDetector,
  process: processDetectorWithoutCommand,
  serviceinstance: resources.serviceInstanceIdDetector,
};

export function resourceDetectors(env: NodeJS.ProcessEnv = process.env): Detector[] {
  const names = (env.OTEL_NODE_RESOURCE_DETECTORS ?? 'env,process,host')
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);
  if (names.includes('none')) return [];
  if (names.includes('all')) return Object.values(BY_NAME);
  return names.flatMap((n) => BY_NAME[n] ?? []);
}
