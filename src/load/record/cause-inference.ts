/**
 * Which limit a 429 hit. The simulator says so in the body (`cause`); a real deployment does not,
 * so the runner infers it from what the client itself has sent: the queue when the last /health
 * showed the queue past the throttle depth on a job-creating call, else concurrency when this
 * operation had as many requests in flight as its limit, else the rate when what it sent in the
 * limiter's window before the 429 (sliding) holds the limit, else unknown. The report says which
 * method was used.
 */
import type { LimitCauseName } from '../../report/run-result.js';
import type { TargetResponse } from '../targets/target.js';

export interface LimitView {
  rate: number | null;
  concurrency: number | null;
}

export interface InferenceState {
  /** In flight for this operation when the request was sent (itself included). */
  inFlightAtSend: number;
  /** Requests of this operation sent in the limiter's window ending at the 429 (sliding). */
  recentSent: number;
  /** Queue depth from the latest /health answer, if any. */
  lastQueueDepth: number | undefined;
  queueThrottleAt: number;
  jobCreating: boolean;
}

const CAUSES = new Set(['rate', 'concurrency', 'queue']);

export function reportedCause(res: TargetResponse): LimitCauseName | undefined {
  const c = (res.body as { cause?: unknown } | undefined)?.cause;
  return typeof c === 'string' && CAUSES.has(c) ? (c as LimitCauseName) : undefined;
}

/** The cause a 429 body names (JSON text), if it names one. */
export function causeInBody(text: string): LimitCauseName | undefined {
  try {
    return reportedCause({ status: 429, body: JSON.parse(text) });
  } catch {
    return undefined;
  }
}

export function inferCause(limit: LimitView, s: InferenceState): LimitCauseName {
  if (s.jobCreating && s.lastQueueDepth !== undefined && s.lastQueueDepth >= s.queueThrottleAt) return 'queue';
  if (limit.concurrency !== null && s.inFlightAtSend >= limit.concurrency) return 'concurrency';
  if (limit.rate !== null && s.recentSent >= limit.rate) return 'rate';
  return 'unknown';
}
