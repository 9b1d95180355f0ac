/**
 * OpenTelemetry spans from domain events, with explicit start and end times: virtual time mapped
 * onto wall-clock epoch ms by `toEpochMs`. Uses only `@opentelemetry/api`; without an SDK
 * registered (wired in cli/ when OTEL_EXPORTER_OTLP_ENDPOINT is set) every call is a no-op.
 */
import { SpanStatusCode, trace, type Span, type Tracer } from '@opentelemetry/api';
import type { SimEvent } from '../contract/sim-events.js';
import type { EventSource } from './collector.js';
import { ATTR, SPAN } from '../contract/metric-names.js';

export type ToEpochMs = (virtualMs: number) => number;

export function loadlabTracer(): Tracer {
  return trace.getTracer('loadlab');
}

/** One span per job, accepted → terminal (or removed). Returns the unsubscribe function. */
export function traceJobs(src: EventSource, toEpochMs: ToEpochMs, tracer: Tracer = loadlabTracer()): () => void {
  const open = new Map<string, Span>();
  const key = (e: { endpointId: string; jobId: string }) => `${e.endpointId}/${e.jobId}`;
  const end = (e: SimEvent & { jobId: string }, status: string, error: boolean) => {
    const s = open.get(key(e));
    if (!s) return;
    open.delete(key(e));
    s.setAttribute(ATTR.jobStatus, status);
    if (error) s.setStatus({ code: SpanStatusCode.ERROR, message: status });
    s.end(toEpochMs(e.atMs));
  };
  return src.bus.on((e) => {
    switch (e.type) {
      case 'job.accepted':
      case 'job.requeued': {
        if (open.has(key(e))) {
          open.get(key(e))!.addEvent('requeued', { reason: e.type === 'job.requeued' ? e.reason : '' }, toEpochMs(e.atMs));
          break;
        }
        const attributes = { [ATTR.endpoint]: e.endpointId, [ATTR.jobId]: e.jobId, ...(e.type === 'job.accepted' ? { [ATTR.jobKind]: e.kind } : {}) };
        open.set(key(e), tracer.startSpan(SPAN.job, { startTime: toEpochMs(e.atMs), attributes }));
        break;
      }
      case 'job.started':
        open.get(key(e))?.addEvent('started', { [ATTR.workerId]: e.workerId, [ATTR.delayMs]: e.delayTimeMs }, toEpochMs(e.atMs));
        break;
      case 'job.finished':
        if (e.executionTimeMs !== undefined) open.get(key(e))?.setAttribute(ATTR.executionMs, e.executionTimeMs);
        end(e, e.status, e.status === 'FAILED' || e.status === 'TIMED_OUT');
        break;
      case 'job.expired':
        end(e, `expired:${e.reason}`, false);
        break;
      case 'job.purged':
        end(e, 'purged', false);
        break;
      default:
        break;
    }
  });
}

/** One span for an HTTP request served, from its arrival to its answer (virtual ms). */
export function traceRequest(tracer: Tracer, toEpochMs: ToEpochMs, r: { route: string; method: string; status: number; startMs: number; endMs: number }): void {
  const s = tracer.startSpan(SPAN.request, {
    startTime: toEpochMs(r.startMs),
    attributes: { [ATTR.route]: r.route, [ATTR.method]: r.method, [ATTR.statusCode]: r.status },
  });
  if (r.status >= 500) s.setStatus({ code: SpanStatusCode.ERROR });
  s.end(toEpochMs(r.endMs));
}
