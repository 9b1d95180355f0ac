/**
 * An arrival process: the intended send times of one flow, in virtual ms from the start of the
 * run. Generators are pulled lazily (one pending arrival per flow) so a 24 h day at 100/s never
 * holds 8.6 M timers.
 */
import type { z } from 'zod';
import type { RandomStream } from '../../lib/random.js';

export interface ArrivalGenerator {
  /** The next intended time in ms (fractional; non-decreasing), or undefined when there is none. */
  next(): number | undefined;
  /**
   * The request of the arrival `next` gave last, when the process carries one (a token trace's
   * row: replay with `format`); absent or undefined otherwise.
   */
  request?(): TraceRequest | undefined;
}

/** What a token trace says of one request: its prompt and answer length in tokens. */
export interface TraceRequest {
  promptTokens: number;
  /** Tokens the answer has: sent as max_tokens with ignore_eos, so the server answers exactly that many. */
  outputTokens: number;
  /** Mooncake: ids of the prompt's 512-token blocks (equal id, equal text: contract/prompt-tokens.ts textOfBlocks). */
  hashIds?: readonly number[];
}

export interface ArrivalContext {
  /** Seeded stream owned by this flow's arrivals. */
  rng: RandomStream;
  /** Length of the traffic phase in ms; arrivals at or after it are not generated. */
  durationMs: number;
}

export interface ArrivalKind<S extends z.ZodType = z.ZodType> {
  /** Schema of the spec object, `process` key included. */
  readonly schema: S;
  create(spec: z.infer<S>, ctx: ArrivalContext): ArrivalGenerator;
  /** Expected number of arrivals in [0, durationMs) (plans, accuracy tests). */
  expected(spec: z.infer<S>, durationMs: number): number;
  /** Highest instantaneous rate in arrivals per second (plans, headroom). */
  peakPerSec(spec: z.infer<S>, durationMs: number): number;
}

export function defineArrival<S extends z.ZodType>(kind: ArrivalKind<S>): ArrivalKind<S> {
  return kind;
}

/** Rates are arrivals per second (>= 0); `perSec` in every name. */
export const RATE_MAX_PER_SEC = 1_000_000;
