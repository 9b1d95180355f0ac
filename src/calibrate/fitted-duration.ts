/**
 * A fitted distribution as calibration.json gives it (`jobDurationMs`, `coldStartMs`, and
 * `llm.outputTokens` in tokens): the fit's model, spec and percentiles, with how far to trust it.
 */
import type { DurationSpec } from '../contract/duration-spec.js';
import type { DurationFit } from './fit-duration.js';

/** A fitted duration in calibration.json. */
export interface FittedDuration {
  model: DurationFit['model'] | 'none';
  /** What calibrated.yaml's endpoint gets; absent: nothing to fit (the scenario's value stays). */
  spec?: DurationSpec;
  /** The fitted distribution's median and p95 (ms). */
  p50?: number;
  p95?: number;
  /** The samples' own median and p95 (ms). */
  observed?: { p50: number; p95: number };
  samples: number;
  /** Kolmogorov–Smirnov distance between the samples and the fit, and the limit a lognormal had to meet. */
  ks?: number;
  ksLimit?: number;
  trusted: boolean;
  /** Why not trusted, or how the samples were picked. */
  note?: string;
}

/** `fit`'s fields up to its trust, in calibration.json's order; `count`: the samples seen (the fit may have read a sample of them). */
export function fittedFields(fit: DurationFit, count: number): Omit<FittedDuration, 'trusted' | 'note'> {
  return {
    model: fit.model,
    spec: fit.spec,
    p50: fit.fitted.p50,
    p95: fit.fitted.p95,
    observed: fit.observed,
    samples: count,
    ks: fit.ks,
    ksLimit: fit.ksLimit,
  };
}
