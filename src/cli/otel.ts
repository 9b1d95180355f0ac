/**
 * Wires the OpenTelemetry SDK (the only place that does): when OTEL_EXPORTER_OTLP_ENDPOINT is
 * set, spans made through `@opentelemetry/api` are batched and exported over OTLP/HTTP (the
 * exporter reads the standard OTEL_* variables itself). Returns undefined when tracing is off.
 * The resource carries no command line (otel-resource.ts): argv may hold an API key or a target
 * URL with credentials.
 */

export interface Tracing {
  shutdown(): Promise<void>;
}

export async function startTracing(serviceName = 'loadlab', env: NodeJS.ProcessEnv = process.env): Promise<Tracing | undefined> {
  if (!env.OTEL_EXPORTER_OTLP_ENDPOINT && !env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) return undefined;
  // Loaded only when asked for: the SDK costs a noticeable share of start-up time.
  const [{ OTLPTraceExporter }, { NodeSDK }, { BatchSpanProcessor }, { resourceDetectors }] = await Promise.all([
    import('@opentelemetry/exporter-trace-otlp-http'),
    import('@opentelemetry/sdk-node'),
    import('@opentelemetry/sdk-trace-base'),
    import('./otel-resource.js'),
  ]);
  const sdk = new NodeSDK({
    serviceName: env.OTEL_SERVICE_NAME ?? serviceName,
    resourceDetectors: resourceDetectors(env),
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter())],
    instrumentations: [],
    // Metrics go to Prometheus through /metrics; no OTel metric or log pipeline.
    metricReaders: [],
    logRecordProcessors: [],
  });
  sdk.start();
  return { shutdown: () => sdk.shutdown().catch(() => undefined) };
}
