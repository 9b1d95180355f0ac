/**
 * Spans of a virtual-time run wait here until the run ends: they are timed in virtual ms from the
 * Unix epoch (RunOptions.tracer), and only then is the run's start instant known (`--start-time`
 * or its default, the one metrics.om uses). `send` moves each span by that instant and exports
 * them in batches; the first failed batch stops it (an unreachable collector costs one export
 * timeout, not one per batch). At most `cap` spans wait: past it, spans are counted, not kept.
 */
import type { HrTime } from '@opentelemetry/api';
import type { ReadableSpan, SpanProcessor } from '@opentelemetry/sdk-trace-base';
import type { WatchedExporter } from './watched-exporter.js';

/** Spans per export request (the BatchSpanProcessor's default batch). */
const BATCH = 512;
/** Default cap: about 100 MB of spans in memory. */
export const HELD_SPANS_CAP = 100_000;

export class HeldSpans implements SpanProcessor {
  private spans: ReadableSpan[] = [];
  /** Spans that found the hold full. */
  dropped = 0;
  /** Spans not sent because an export failed before their batch. */
  unsent = 0;

  constructor(private readonly cap = HELD_SPANS_CAP) {}

  onStart(): void {}

  onEnd(span: ReadableSpan): void {
    if (this.spans.length < this.cap) this.spans.push(span);
    else this.dropped++;
  }

  /** Exports every span held, moved by `startMs` (epoch ms of virtual time 0); then holds nothing. */
  async send(exporter: WatchedExporter, startMs: number, timeoutMs: number): Promise<void> {
    const spans = this.spans;
    this.spans = [];
    for (let i = 0; i < spans.length; i += BATCH) {
      const ok = await exporter.exportWithin(
        spans.slice(i, i + BATCH).map((s) => shifted(s, startMs)),
        timeoutMs,
      );
      if (!ok) {
        this.unsent = spans.length - Math.min(spans.length, i + BATCH);
        return;
      }
    }
  }

  /** Drops what is held (a run that failed: its start instant is never known). */
  discard(): void {
    this.spans = [];
  }

  forceFlush(): Promise<void> {
    return Promise.resolve();
  }

  shutdown(): Promise<void> {
    this.discard();
    return Promise.resolve();
  }
}

/** `s` with its times (and its events') moved by `ms`. */
function shifted(s: ReadableSpan, ms: number): ReadableSpan {
  const add = (t: HrTime): HrTime => {
    const ns = t[1] + (ms % 1000) * 1e6;
    return [t[0] + Math.floor(ms / 1000) + Math.floor(ns / 1e9), ns % 1e9];
  };
  return {
    name: s.name,
    kind: s.kind,
    spanContext: () => s.spanContext(),
    parentSpanContext: s.parentSpanContext,
    startTime: add(s.startTime),
    endTime: add(s.endTime),
    status: s.status,
    attributes: s.attributes,
    links: s.links,
    events: s.events.map((e) => ({ ...e, time: add(e.time) })),
    duration: s.duration,
    ended: s.ended,
    resource: s.resource,
    instrumentationScope: s.instrumentationScope,
    droppedAttributesCount: s.droppedAttributesCount,
    droppedEventsCount: s.droppedEventsCount,
    droppedLinksCount: s.droppedLinksCount,
  };
}
