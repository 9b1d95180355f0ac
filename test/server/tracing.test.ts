/** OpenTelemetry spans per job and per request, timed in virtual time mapped onto the epoch. */
import { trace } from '@opentelemetry/api';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ATTR, SPAN } from '../../src/contract/metric-names.js';
import { serve } from './serve-helper.js';

const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
beforeAll(() => {
  trace.setGlobalTracerProvider(provider);
});
afterAll(async () => {
  await provider.shutdown();
  trace.disable();
});

const ms = (t: [number, number]) => t[0] * 1000 + t[1] / 1e6;

describe('tracing', () => {
  it('a job span lasts its virtual life; request spans carry route and status', async () => {
    const t = await serve({ jobDurationMs: 2500 }, {}, { tracing: true });
    try {
      const id = (await t.run({ a: 1 })).body.id;
      await t.advance(2500);
      await t.status(id);
      const spans = exporter.getFinishedSpans();
      const job = spans.find((s) => s.name === SPAN.job)!;
      expect(job.attributes).toMatchObject({ [ATTR.endpoint]: 'ep', [ATTR.jobId]: id, [ATTR.jobStatus]: 'COMPLETED', [ATTR.executionMs]: 2500 });
      expect(ms(job.endTime) - ms(job.startTime)).toBeCloseTo(2500, 3);
      expect(job.events.map((e) => e.name)).toEqual(['started']);
      const reqs = spans.filter((s) => s.name === SPAN.request).map((s) => [s.attributes[ATTR.route], s.attributes[ATTR.statusCode]]);
      expect(reqs).toEqual([
        ['run', 200],
        ['admin', 200],
        ['status', 200],
      ]);
    } finally {
      await t.close();
    }
  });
});
