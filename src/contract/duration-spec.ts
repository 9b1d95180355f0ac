/**
 * How a duration is written in config: whole milliseconds, or a distribution object keyed by
 * `dist`. The schema and the mean of each kind live here (planning and Erlang C need the mean
 * without drawing); the samplers live in `sim/distributions/`, one file each. Adding a kind is
 * one entry here and one sampler file with its registry line there.
 */
import { z } from 'zod';

/** z-score of the 95th percentile of the standard normal distribution. */
export const Z95 = 1.6448536269514722;

const ms = z.number().int().nonnegative();

/** Schema and mean (ms) of each distribution kind. */
export const distributionSpecs = {
  /** `{dist: "constant", ms}`: always `ms`. A bare integer means the same. */
  constant: {
    schema: z.strictObject({ dist: z.literal('constant'), ms }),
    mean: (s: { ms: number }) => s.ms,
  },
  /** `{dist: "uniform", minMs, maxMs}`: uniform over [minMs, maxMs], rounded to whole ms. */
  uniform: {
    schema: z
      .strictObject({ dist: z.literal('uniform'), minMs: z.number().nonnegative(), maxMs: z.number().nonnegative() })
      .refine((s) => s.maxMs >= s.minMs, { message: 'maxMs must be >= minMs', path: ['maxMs'] }),
    mean: (s: { minMs: number; maxMs: number }) => (s.minMs + s.maxMs) / 2,
  },
  /** `{dist: "exponential", meanMs}`: memoryless service or inter-arrival times (M/M/c models). */
  exponential: {
    schema: z.strictObject({ dist: z.literal('exponential'), meanMs: z.number().positive() }),
    mean: (s: { meanMs: number }) => s.meanMs,
  },
  /**
   * `{dist: "lognormal", medianMs, p95Ms}`: the heavy right tail of real job and cold-start times,
   * parameterised by what people measure (median and p95) rather than mu and sigma.
   */
  lognormal: {
    schema: z
      .strictObject({ dist: z.literal('lognormal'), medianMs: z.number().positive(), p95Ms: z.number().positive() })
      .refine((s) => s.p95Ms >= s.medianMs, { message: 'p95Ms must be >= medianMs', path: ['p95Ms'] }),
    mean: (s: { medianMs: number; p95Ms: number }) => {
      const sigma = (Math.log(s.p95Ms) - Math.log(s.medianMs)) / Z95;
      return s.medianMs * Math.exp((sigma * sigma) / 2);
    },
  },
  /** `{dist: "empirical", samplesMs: [...]}`: draws uniformly from measured samples (e.g. a trace). */
  empirical: {
    schema: z.strictObject({ dist: z.literal('empirical'), samplesMs: z.array(ms).min(1) }),
    mean: (s: { samplesMs: number[] }) => s.samplesMs.reduce((a, b) => a + b, 0) / s.samplesMs.length,
  },
} as const;

const d = distributionSpecs;
const specSchema = z.union([d.constant.schema, d.uniform.schema, d.exponential.schema, d.lognormal.schema, d.empirical.schema]);

/** A duration in config: whole milliseconds, or a distribution object. */
export const durationSchema = z.union([ms, specSchema]);
export type DurationSpec = z.infer<typeof durationSchema>;
export type DistributionSpec = Exclude<DurationSpec, number>;
export type DistributionName = DistributionSpec['dist'];
export type SpecOf<N extends DistributionName> = Extract<DistributionSpec, { dist: N }>;

/** The mean of a duration spec in ms. */
export function meanMs(spec: DurationSpec): number {
  if (typeof spec === 'number') return spec;
  return (distributionSpecs[spec.dist].mean as (s: DistributionSpec) => number)(spec);
}
