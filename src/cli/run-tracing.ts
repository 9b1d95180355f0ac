/**
 * Tracing for `loadlab run` (telemetry/session-tracing.ts makes the spans): on a wall-clock
 * target spans stream out in batches while the run goes on; on a virtual-time one they wait in
 * memory (held-spans.ts) until the run's start instant is known, then go out in one pass. Either
 * way `finish` ends the SDK within about one export timeout (OTEL_EXPORTER_OTLP_TIMEOUT, 10 s by
 * default), so an unreachable collector delays the exit by that much and never fails the run.
 */
import type { Tracer } from '@opentelemetry/api';
import { startTracing } from './otel.js';
import { exportTimeoutMs, tracingWanted } from './otel-env.js';
import { HeldSpans } from './held-spans.js';
import { WatchedExporter } from './watched-exporter.js';

export interface RunTracing {
  tracer: Tracer;
  /**
   * After the run: sends what is held (virtual time moved onto `startMs`, epoch ms; undefined:
   * the run failed, drop it) and shuts the SDK down. Resolves to a warning line when spans were
   * lost, else undefined.
   */
  finish(startMs: number | undefined): Promise<string | undefined>;
}

export async function startRunTracing(clock: 'virtual' | 'wall', env: NodeJS.ProcessEnv = process.env): Promise<RunTracing | undefined> {
  if (!tracingWanted(env)) return undefined;
  let watched: WatchedExporter | undefined;
  const held = clock === 'virtual' ? new HeldSpans() : undefined;
  const tracing = await startTracing('loadlab', env, async (exporter) => {
    watched = new WatchedExporter(exporter);
    if (held) return [held];
    const { BatchSpanProcessor } = await import('@opentelemetry/sdk-trace-base');
    return [new BatchSpanProcessor(watched)];
  });
  if (!tracing || !watched) return undefined;
  const exporter = watched;
  const timeoutMs = exportTimeoutMs(env);
  // Not a static import: a run without tracing does not load the API (some 20 ms of start-up).
  const { loadlabTracer } = await import('../telemetry/tracing.js');
  return {
    tracer: loadlabTracer(),
    finish: async (startMs) => {
      if (held && startMs !== undefined) await held.send(exporter, startMs, timeoutMs);
      held?.discard();
      // The batch processor's last flush waits for the exporter's own timeout at most.
      await within(tracing.shutdown(), timeoutMs + 1000);
      const lost = exporter.failed + (held ? held.dropped + held.unsent : 0);
      if (lost === 0) return undefined;
      const why = [
        exporter.failed + (held?.unsent ?? 0) > 0 ? `export failed (${exporter.lastError ?? 'unknown'})` : '',
        held?.dropped ? `${held.dropped} over the in-memory cap of a virtual-time run (sample with OTEL_TRACES_SAMPLER=traceidratio)` : '',
      ]
        .filter(Boolean)
        .join('; ');
      return `traces: ${lost} span${lost === 1 ? '' : 's'} not exported: ${why}`;
    },
  };
}

function within(p: Promise<void>, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const t = setTimeout(resolve, ms);
    t.unref();
    void p.finally(() => {
      clearTimeout(t);
      resolve();
    });
  });
}
