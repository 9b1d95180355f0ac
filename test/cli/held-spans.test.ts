/** Virtual-time spans held until the run's start instant is known, then moved onto it and sent in batches. */
import { BasicTracerProvider, InMemorySpanExporter, type ReadableSpan, type SpanExporter } from '@opentelemetry/sdk-trace-base';
import { describe, expect, test } from 'vitest';
import { HeldSpans } from '../../src/cli/held-spans.js';
import { WatchedExporter } from '../../src/cli/watched-exporter.js';
import { msToHrTime } from '../../src/telemetry/session-tracing.js';

function spans(held: HeldSpans, n: number, atMs = 1500): void {
  const tracer = new BasicTracerProvider({ spanProcessors: [held] }).getTracer('t');
  for (let i = 0; i < n; i++) tracer.startSpan(`s${i}`, { startTime: msToHrTime(atMs) }).end(msToHrTime(atMs + 250));
}

/** Fails every export, as a refused connection does, and counts the calls. */
class Refusing implements SpanExporter {
  calls = 0;
  export(_s: ReadableSpan[], done: (r: { code: number; error?: Error }) => void): void {
    this.calls++;
    done({ code: 1, error: Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9 http://user:pass@x'), { code: 'ECONNREFUSED' }) });
  }
  shutdown(): Promise<void> {
    return Promise.resolve();
  }
}

describe('HeldSpans', () => {
  test('moves each span by the start instant (carrying into the seconds) and sends them all', async () => {
    const held = new HeldSpans();
    spans(held, 1200);
    const mem = new InMemorySpanExporter();
    const ex = new WatchedExporter(mem);
    await held.send(ex, Date.parse('2024-05-01T12:00:00.700Z'), 5000);
    const got = mem.getFinishedSpans();
    expect(got).toHaveLength(1200);
    expect(ex.sent).toBe(1200);
    const start = Date.parse('2024-05-01T12:00:02Z') / 1000;
    expect(got.every((s) => s.startTime[0] === start && s.startTime[1] === 200_000_000)).toBe(true);
    expect(got.every((s) => s.endTime[0] === start && s.endTime[1] === 450_000_000)).toBe(true);
  });

  test('the first failed batch stops the sending: one refused export, the rest counted unsent, the error kept as a code', async () => {
    const held = new HeldSpans();
    spans(held, 1200);
    const refusing = new Refusing();
    const ex = new WatchedExporter(refusing);
    await held.send(ex, 0, 5000);
    expect(refusing.calls).toBe(1);
    expect([ex.failed, held.unsent]).toEqual([512, 688]);
    expect(ex.lastError).toBe('ECONNREFUSED');
  });

  test('past its cap, spans are counted, not kept', async () => {
    const held = new HeldSpans(10);
    spans(held, 25);
    const mem = new InMemorySpanExporter();
    await held.send(new WatchedExporter(mem), 0, 5000);
    expect([mem.getFinishedSpans().length, held.dropped]).toEqual([10, 15]);
  });
});
