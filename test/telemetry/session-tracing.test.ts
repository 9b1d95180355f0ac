/** Session spans made through the API against a real SDK provider: sampling, ends, time mapping. */
import { AlwaysOffSampler, BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { describe, expect, test } from 'vitest';
import { ATTR, SPAN } from '../../src/contract/metric-names.js';
import { msToHrTime, SessionTracer } from '../../src/telemetry/session-tracing.js';

function setup(sampled = true) {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)], ...(sampled ? {} : { sampler: new AlwaysOffSampler() }) });
  return { exporter, tracer: new SessionTracer(provider.getTracer('t'), msToHrTime, 'ep') };
}

describe('SessionTracer', () => {
  test('a session and its requests: children of it, timed on the run clock, the job id from the submission', () => {
    const { exporter, tracer } = setup();
    const s = tracer.start('poll', 1500)!;
    s.request({ op: 'run', method: 'POST' }, 1500, 1510, 200, undefined, { id: 'job-1', status: 'IN_QUEUE' });
    s.request({ op: 'status', method: 'GET', jobId: 'job-1' }, 2000, 2003, 429, 'rate', undefined);
    s.request({ op: 'status', method: 'GET', jobId: 'job-1' }, 3000, 3001, 0, undefined, undefined);
    s.end('COMPLETED', 3001);
    const spans = exporter.getFinishedSpans();
    const session = spans.find((x) => x.name === SPAN.session)!;
    expect(session.startTime).toEqual([1, 500_000_000]);
    expect(session.endTime).toEqual([3, 1_000_000]);
    expect(session.attributes).toEqual({ [ATTR.flow]: 'poll', [ATTR.endpoint]: 'ep', [ATTR.jobId]: 'job-1', [ATTR.sessionOutcome]: 'COMPLETED' });
    const reqs = spans.filter((x) => x.name === SPAN.clientRequest);
    expect(reqs.map((r) => r.parentSpanContext?.spanId)).toEqual([session.spanContext().spanId, session.spanContext().spanId, session.spanContext().spanId]);
    expect(reqs.map((r) => r.attributes)).toEqual([
      { [ATTR.operation]: 'run', [ATTR.method]: 'POST', [ATTR.statusCode]: 200, [ATTR.jobId]: 'job-1' },
      { [ATTR.operation]: 'status', [ATTR.method]: 'GET', [ATTR.statusCode]: 429, [ATTR.limitCause]: 'rate', [ATTR.jobId]: 'job-1' },
      { [ATTR.operation]: 'status', [ATTR.method]: 'GET', [ATTR.jobId]: 'job-1' },
    ]);
    expect(reqs.map((r) => r.status.code)).toEqual([0, 2, 2]);
  });

  test('a session the sampler leaves out gets no handle and exports nothing', () => {
    const { exporter, tracer } = setup(false);
    expect(tracer.start('poll', 0)).toBeUndefined();
    tracer.finish(10);
    expect(exporter.getFinishedSpans()).toEqual([]);
  });

  test('the run stopping ends open sessions unfinished, once; an ended session is not ended again', () => {
    const { exporter, tracer } = setup();
    const a = tracer.start('a', 0)!;
    tracer.start('b', 5);
    a.end('gave-up', 7);
    tracer.finish(20);
    a.end('COMPLETED', 30);
    const sessions = exporter.getFinishedSpans().map((x) => [x.attributes[ATTR.flow], x.attributes[ATTR.sessionOutcome], x.endTime[1] / 1e6, x.status.code]);
    expect(sessions).toEqual([
      ['a', 'gave-up', 7, 2],
      ['b', 'unfinished', 20, 2],
    ]);
  });

  test('wall-clock fractions of a ms survive, to the microsecond a double holds at epoch scale', () => {
    const [s, ns] = msToHrTime(1_714_564_800_123.456);
    expect(s).toBe(1_714_564_800);
    expect(Math.abs(ns - 123_456_000)).toBeLessThan(1000);
    expect(msToHrTime(1999)).toEqual([1, 999_000_000]);
  });
});
