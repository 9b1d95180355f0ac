import type { RandomStream } from '../../lib/random.js';

/** Exponential back-off: `baseMs × factor^(attempt−1)`, capped at `maxMs`, minus up to `jitter` of it. */
export interface BackoffSpec {
  baseMs: number;
  factor: number;
  maxMs: number;
  /** Fraction in [0, 1] of the delay taken off at random (0 = none). */
  jitter: number;
}

/** Delay in whole ms before attempt `attempt + 1` (attempt counts from 1). */
export function backoffMs(b: BackoffSpec, attempt: number, rng: RandomStream): number {
  const raw = Math.min(b.maxMs, b.baseMs * b.factor ** (attempt - 1));
  return Math.max(0, Math.round(b.jitter > 0 ? raw * (1 - b.jitter * rng.next()) : raw));
}
