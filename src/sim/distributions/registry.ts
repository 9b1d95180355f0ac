/**
 * Duration distributions, keyed by their `dist` name. Adding one is a new file and one line here.
 * A duration is either an integer number of ms (constant) or one of these spec objects.
 */
import { z } from 'zod';
import type { RandomStream } from '../random.js';
import { constant } from './constant.js';
import { empirical } from './empirical.js';
import { exponential } from './exponential.js';
import { lognormal } from './lognormal.js';
import type { DistributionKind, Sampler } from './types.js';
import { uniform } from './uniform.js';

export const distributions = { constant, uniform, exponential, lognormal, empirical } as const;
export type DistributionName = keyof typeof distributions;

const specSchema = z.union([
  constant.schema,
  uniform.schema,
  exponential.schema,
  lognormal.schema,
  empirical.schema,
]);

/** A duration in config: whole milliseconds, or a distribution object. */
export const durationSchema = z.union([z.number().int().nonnegative(), specSchema]);
export type DurationSpec = z.infer<typeof durationSchema>;

function kindOf(spec: Exclude<DurationSpec, number>): DistributionKind {
  return distributions[spec.dist] as unknown as DistributionKind;
}

/** A sampler for a validated duration spec, drawing from `rng`. */
export function sampler(spec: DurationSpec, rng: RandomStream): Sampler {
  if (typeof spec === 'number') return () => spec;
  return kindOf(spec).create(spec, rng);
}

/** The mean of a duration spec in ms. */
export function meanMs(spec: DurationSpec): number {
  return typeof spec === 'number' ? spec : kindOf(spec).mean(spec);
}
