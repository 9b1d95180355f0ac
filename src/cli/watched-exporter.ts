/**
 * A span exporter that counts what reached the collector and what did not, so that `loadlab run`
 * can say so in one line at its end (the SDK itself only logs through its silent diag logger).
 * The error kept is a code (ECONNREFUSED, an HTTP status, timeout), never a message: an error
 * text may quote the endpoint URL with its credentials.
 */
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace-base';

type Done = Parameters<SpanExporter['export']>[1];
type Result = Parameters<Done>[0];

/** ExportResultCode.SUCCESS of @opentelemetry/core (not a direct dependency). */
const SUCCESS = 0;

export class WatchedExporter implements SpanExporter {
  sent = 0;
  failed = 0;
  lastError: string | undefined = undefined;

  constructor(private readonly inner: SpanExporter) {}

  export(spans: ReadableSpan[], done: Done): void {
    this.inner.export(spans, (r) => {
      if (r.code === SUCCESS) this.sent += spans.length;
      else {
        this.failed += spans.length;
        this.lastError = errorCode(r);
      }
      done(r);
    });
  }

  /** Exports `spans` and resolves true on success; false on failure or after `timeoutMs`. */
  exportWithin(spans: ReadableSpan[], timeoutMs: number): Promise<boolean> {
    return new Promise((resolve) => {
      const t = setTimeout(() => {
        this.lastError = 'timeout';
        resolve(false);
      }, timeoutMs);
      t.unref();
      this.export(spans, (r) => {
        clearTimeout(t);
        resolve(r.code === SUCCESS);
      });
    });
  }

  shutdown(): Promise<void> {
    return this.inner.shutdown();
  }

  forceFlush(): Promise<void> {
    return this.inner.forceFlush?.() ?? Promise.resolve();
  }
}

function errorCode(r: Result): string {
  const e = r.error as (Error & { code?: unknown; cause?: { code?: unknown } }) | undefined;
  const code = e?.code ?? e?.cause?.code;
  if (typeof code === 'string' || typeof code === 'number') return String(code);
  return e?.name && e.name !== 'Error' ? e.name : 'export failed';
}
