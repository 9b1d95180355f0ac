/**
 * How a duration is written in config: whole milliseconds, or a distribution object keyed by
 * `dist`. The schema and the mean of each kind live here (planning and Erlang C need the mean
 * without drawing); the samplers live in `sampling/`, one file each. Adding a kind is
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
    schema: z.strictObject({
      dist: z.literal('constant').meta({ description: 'Distribution kind: always the same duration (a bare integer means the same).' }),
      ms: ms.meta({ description: 'The duration in whole ms.', examples: [500, 30_000] }),
    }),
    mean: (s: { ms: number }) => s.ms,
  },
  /** `{dist: "uniform", minMs, maxMs}`: uniform over [minMs, maxMs], rounded to whole ms. */
  uniform: {
    schema: z
      .strictObject({
        dist: z.literal('uniform').meta({ description: 'Distribution kind: uniform over [minMs, maxMs], rounded to whole ms.' }),
        minMs: z
          .number()
          .nonnegative()
          .meta({ description: 'Shortest duration in ms.', examples: [200, 5000] }),
        maxMs: z
          .number()
          .nonnegative()
          .meta({ description: 'Longest duration in ms; at least minMs.', examples: [1500, 20_000] }),
      })
      .refine((s) => s.maxMs >= s.minMs, { message: 'maxMs must be >= minMs', path: ['maxMs'] }),
    mean: (s: { minMs: number; maxMs: number }) => (s.minMs + s.maxMs) / 2,
  },
  /** `{dist: "exponential", meanMs}`: memoryless service or inter-arrival times (M/M/c models). */
  exponential: {
    schema: z.strictObject({
      dist: z.literal('exponential').meta({ description: 'Distribution kind: exponential (memoryless), as in M/M/c queueing models.' }),
      meanMs: z
        .number()
        .positive()
        .meta({ description: 'Mean duration in ms.', examples: [1000, 250] }),
    }),
    mean: (s: { meanMs: number }) => s.meanMs,
  },
  /**
   * `{dist: "lognormal", medianMs, p95Ms}`: the heavy right tail of real job and cold-start times,
   * parameterised by what people measure (median and p95) rather than mu and sigma.
   */
  lognormal: {
    schema: z
      .strictObject({
        dist: z
          .literal('lognormal')
          .meta({ description: 'Distribution kind: lognormal, the heavy right tail of real job and cold-start times, given by its median and p95.' }),
        medianMs: z
          .number()
          .positive()
          .meta({ description: 'Median duration in ms (half of the draws are shorter).', examples: [800, 8000] }),
        p95Ms: z
          .number()
          .positive()
          .meta({ description: '95th percentile in ms; at least medianMs.', examples: [3000, 25_000] }),
      })
      .refine((s) => s.p95Ms >= s.medianMs, { message: 'p95Ms must be >= medianMs', path: ['p95Ms'] }),
    mean: (s: { medianMs: number; p95Ms: number }) => {
      const sigma = (Math.log(s.p95Ms) - Math.log(s.medianMs)) / Z95;
      return s.medianMs * Math.exp((sigma * sigma) / 2);
    },
  },
  /** `{dist: "empirical", samplesMs: [...]}`: draws uniformly from measured samples (e.g. a trace). */
  empirical: {
    schema: z.strictObject({
      dist: z.literal('empirical').meta({ description: 'Distribution kind: draws uniformly from measured samples (e.g. from a trace).' }),
      samplesMs: z
        .array(ms)
        .min(1)
        .meta({ description: 'Measured durations in whole ms, at least one; each is drawn with equal probability.', examples: [[420, 510, 730, 2900]] }),
    }),
    mean: (s: { samplesMs: number[] }) => s.samplesMs.reduce((a, b) => a + b, 0) / s.samplesMs.length,
  },
} as const;

const d = distributionSpecs;
const specSchema = z.union([d.constant.schema, d.uniform.schema, d.exponential.schema, d.lognormal.schema, d.empirical.schema]);

/** A duration in config: whole milliseconds, or a distribution object. */
export const durationSchema = z.union([ms, specSchema]).meta({
  description:
    'A duration: whole ms, or a distribution object keyed by `dist` (constant, uniform, exponential, lognormal, empirical); draws are rounded to whole ms.',
  examples: [1000, { dist: 'lognormal', medianMs: 800, p95Ms: 3000 }, { dist: 'uniform', minMs: 500, maxMs: 1500 }],
});
export type DurationSpec = z.infer<typeof durationSchema>;
export type DistributionSpec = Exclude<DurationSpec, number>;
export type DistributionName = DistributionSpec['dist'];
export type SpecOf<N extends DistributionName> = Extract<DistributionSpec, { dist: N }>;

/** The mean of a duration spec in ms. */
export function meanMs(spec: DurationSpec): number {
  if (typeof spec === 'number') return spec;
  return (distributionSpecs[spec.dist].mean as (s: DistributionSpec) => number)(spec);
}
