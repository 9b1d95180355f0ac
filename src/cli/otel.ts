/**
 * Wires the OpenTelemetry SDK (the only place that does): when OTEL_EXPORTER_OTLP_ENDPOINT is
 * set, spans made through `@opentelemetry/api` are batched and exported over OTLP/HTTP (the
 * exporter reads the standard OTEL_* variables itself). Returns undefined when tracing is off.
 */
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { NodeSDK } from '@opentelemetry/sdk-node';
import { BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';

export interface Tracing {
  shutdown(): Promise<void>;
}

export function startTracing(serviceName = 'loadlab', env: NodeJS.ProcessEnv = process.env): Tracing | undefined {
  if (!env.OTEL_EXPORTER_OTLP_ENDPOINT && !env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) return undefined;
  const sdk = new NodeSDK({
    serviceName: env.OTEL_SERVICE_NAME ?? serviceName,
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter())],
    instrumentations: [],
    // Metrics go to Prometheus through /metrics; no OTel metric or log pipeline.
    metricReaders: [],
    logRecordProcessors: [],
  });
  sdk.start();
  return { shutdown: () => sdk.shutdown().catch(() => undefined) };
}
