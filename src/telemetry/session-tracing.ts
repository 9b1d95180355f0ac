/**
 * `loadlab run`'s spans: one per job session (SPAN.session, from its arrival to how it ended) with
 * a CLIENT child per request it sent (SPAN.clientRequest, from the send to the answer; each 429
 * re-send is its own child). Only `@opentelemetry/api`: the SDK (sampler, exporter) is wired in
 * cli/. The run loop holds a SessionTracer only when tracing is on, so a run without it makes no
 * tracer call at all; a session the sampler leaves out gets no handle and costs one startSpan.
 * Attributes carry names, ids and codes only: never a URL, a key, a body or an error text.
 */
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Attributes, type Context, type HrTime, type Span, type Tracer } from '@opentelemetry/api';
import { ATTR, SPAN } from '../contract/metric-names.js';

/** The run's clock (ms, virtual or wall) to a span timestamp. */
export type ToHrTime = (ms: number) => HrTime;

/**
 * Whole ms (or a fraction, on the wall clock) to [seconds, nanoseconds]. An HrTime and not a
 * number: the SDK reads a number below `performance.now()` as a performance timestamp.
 */
export function msToHrTime(ms: number): HrTime {
  const s = Math.floor(ms / 1000);
  const ns = Math.min(999_999_999, Math.round((ms - s * 1000) * 1e6));
  return [s, ns];
}

/** What one request of a session shows on its span. */
export interface TracedRequest {
  op: string;
  method: string;
  /** The job the request is about (`/status/{id}` …); a submission's id comes from its answer. */
  jobId?: string | undefined;
}

/** Outcomes of a session that are not a failure of the job or of the requests. */
const FINE = new Set(['COMPLETED', 'CANCELLED', 'ok']);
const SUBMITS = new Set(['run', 'runsync']);

/** One sampled session's span; made by SessionTracer.start. */
export class SessionSpan {
  private jobId: string | undefined = undefined;
  private ended = false;

  constructor(
    private readonly tracer: SessionTracer,
    readonly span: Span,
    private readonly ctx: Context,
  ) {}

  /**
   * A request the session sent, from `sentMs` to its answer at `endMs` (run clock). `status` 0:
   * no answer (timeout or transport error); `cause`: the limit of a 429.
   */
  request(req: TracedRequest, sentMs: number, endMs: number, status: number, cause: string | undefined, body: unknown): void {
    const t = this.tracer;
    const attributes: Attributes = { [ATTR.operation]: req.op, [ATTR.method]: req.method };
    if (status > 0) attributes[ATTR.statusCode] = status;
    if (cause !== undefined) attributes[ATTR.limitCause] = cause;
    let jobId = req.jobId;
    if (jobId === undefined && status === 200 && SUBMITS.has(req.op)) {
      const id = (body as { id?: unknown } | undefined)?.id;
      if (typeof id === 'string') jobId = id;
    }
    if (jobId !== undefined) {
      attributes[ATTR.jobId] = jobId;
      if (this.jobId === undefined) {
        this.jobId = jobId;
        this.span.setAttribute(ATTR.jobId, jobId);
      }
    }
    const child = t.tracer.startSpan(SPAN.clientRequest, { kind: SpanKind.CLIENT, startTime: t.time(sentMs), attributes }, this.ctx);
    // The HTTP client-span rule: 4xx, 5xx and no answer are errors (the message is a code, never an error text).
    if (status === 0 || status >= 400) child.setStatus({ code: SpanStatusCode.ERROR, message: status === 0 ? 'no answer' : String(status) });
    child.end(t.time(endMs));
  }

  /** The session ended at `atMs` with `outcome` (a terminal status, gave-up, expired, …). */
  end(outcome: string, atMs: number): void {
    if (this.ended) return;
    this.ended = true;
    this.tracer.closed(this);
    this.span.setAttribute(ATTR.sessionOutcome, outcome);
    if (!FINE.has(outcome)) this.span.setStatus({ code: SpanStatusCode.ERROR, message: outcome });
    this.span.end(this.tracer.time(atMs));
  }
}

export class SessionTracer {
  /** Sampled sessions not ended yet: ended `unfinished` when the run stops. */
  private readonly open = new Set<SessionSpan>();

  /** `time`: the run's clock to span time; `endpoint`: the endpoint id (never a URL). */
  constructor(
    readonly tracer: Tracer,
    readonly time: ToHrTime,
    private readonly endpoint: string,
  ) {}

  /** A session of `flow` arrived at `atMs`: its span, or undefined when the sampler left it out. */
  start(flow: string, atMs: number): SessionSpan | undefined {
    const span = this.tracer.startSpan(SPAN.session, { startTime: this.time(atMs) }, ROOT_CONTEXT);
    if (!span.isRecording()) return undefined;
    span.setAttributes({ [ATTR.flow]: flow, [ATTR.endpoint]: this.endpoint });
    const s = new SessionSpan(this, span, trace.setSpan(ROOT_CONTEXT, span));
    this.open.add(s);
    return s;
  }

  closed(s: SessionSpan): void {
    this.open.delete(s);
  }

  /** The run stopped at `atMs`: every session still open ends `unfinished` (as report.json counts it). */
  finish(atMs: number): void {
    for (const s of [...this.open]) s.end('unfinished', atMs);
  }
}
