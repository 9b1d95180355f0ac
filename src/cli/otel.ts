/**
 * Wires the OpenTelemetry SDK (the only place that does): when OTEL_EXPORTER_OTLP_ENDPOINT (or
 * OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) is set, spans made through `@opentelemetry/api` are exported
 * over OTLP/HTTP. The SDK reads the sampler (OTEL_TRACES_SAMPLER, _ARG) and the exporter the
 * endpoint, headers, timeout and compression from the standard variables themselves. Returns
 * undefined when tracing is off. The resource carries no command line (otel-resource.ts): argv may
 * hold an API key or a target URL with credentials.
 */
import type { SpanExporter, SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { checkSamplerEnv, tracingWanted } from './otel-env.js';

export interface Tracing {
  shutdown(): Promise<void>;
}

/** The span processors over the OTLP exporter; default: one BatchSpanProcessor. */
export type Processors = (exporter: SpanExporter) => SpanProcessor[] | Promise<SpanProcessor[]>;

export async function startTracing(serviceName = 'loadlab', env: NodeJS.ProcessEnv = process.env, processors?: Processors): Promise<Tracing | undefined> {
  if (!tracingWanted(env)) return undefined;
  checkSamplerEnv(env);
  // Loaded only when asked for: the SDK costs a noticeable share of start-up time.
  const [{ OTLPTraceExporter }, { NodeSDK }, { BatchSpanProcessor }, { resourceDetectors }] = await Promise.all([
    import('@opentelemetry/exporter-trace-otlp-http'),
    import('@opentelemetry/sdk-node'),
    import('@opentelemetry/sdk-trace-base'),
    import('./otel-resource.js'),
  ]);
  const exporter = new OTLPTraceExporter();
  const sdk = new NodeSDK({
    serviceName: env.OTEL_SERVICE_NAME ?? serviceName,
    resourceDetectors: resourceDetectors(env),
    spanProcessors: processors ? await processors(exporter) : [new BatchSpanProcessor(exporter)],
    instrumentations: [],
    // Metrics go to Prometheus through /metrics; no OTel metric or log pipeline.
    metricReaders: [],
    logRecordProcessors: [],
  });
  sdk.start();
  return { shutdown: () => sdk.shutdown().catch(() => undefined) };
}
