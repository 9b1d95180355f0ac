/**
 * The standard OTEL_* variables loadlab reads itself (the SDK and the exporter read the rest:
 * headers, endpoint, protocol, resource attributes). A sampler the SDK would not understand is
 * refused (exit 2) instead of being dropped with a log line nobody sees.
 */
import { CliError, EXIT } from './exit-codes.js';

const SAMPLERS = ['always_on', 'always_off', 'traceidratio', 'parentbased_always_on', 'parentbased_always_off', 'parentbased_traceidratio'];

/** Throws CliError (exit 2) naming the variable when OTEL_TRACES_SAMPLER or its argument is invalid. */
export function checkSamplerEnv(env: NodeJS.ProcessEnv): void {
  const name = env.OTEL_TRACES_SAMPLER?.trim();
  if (name === undefined || name === '') return;
  if (!SAMPLERS.includes(name)) throw new CliError(`OTEL_TRACES_SAMPLER: "${name}" is not a sampler; use one of ${SAMPLERS.join(', ')}`, EXIT.USAGE);
  const arg = env.OTEL_TRACES_SAMPLER_ARG?.trim();
  if (!name.endsWith('traceidratio') || arg === undefined || arg === '') return;
  const ratio = Number(arg);
  if (!(ratio >= 0 && ratio <= 1))
    throw new CliError(`OTEL_TRACES_SAMPLER_ARG: must be a number from 0 to 1 (the share of traces kept), got "${arg}"`, EXIT.USAGE);
}

/** The exporter's timeout per export, ms: OTEL_EXPORTER_OTLP_TRACES_TIMEOUT, else OTEL_EXPORTER_OTLP_TIMEOUT, else 10 000 (the exporter's own rule). */
export function exportTimeoutMs(env: NodeJS.ProcessEnv): number {
  for (const v of [env.OTEL_EXPORTER_OTLP_TRACES_TIMEOUT, env.OTEL_EXPORTER_OTLP_TIMEOUT]) {
    const n = Number(v?.trim() || NaN);
    if (Number.isFinite(n) && n > 0) return n;
  }
  return 10_000;
}

export function tracingWanted(env: NodeJS.ProcessEnv): boolean {
  return Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT);
}
