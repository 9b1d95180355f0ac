/**
 * Duration samplers, keyed by the `dist` name of their spec (contract/duration-spec.ts). Adding
 * a kind is its schema and mean there, a new file here and one line below.
 */
import type { DistributionName, DistributionSpec, DurationSpec } from '../contract/duration-spec.js';
import type { RandomStream } from '../lib/random.js';
import { constant } from './constant.js';
import { empirical } from './empirical.js';
import { exponential } from './exponential.js';
import { lognormal } from './lognormal.js';
import type { Sampler, SamplerFactory } from './types.js';
import { uniform } from './uniform.js';

export const distributions: { readonly [N in DistributionName]: SamplerFactory<N> } = { constant, uniform, exponential, lognormal, empirical };

/** A sampler for a validated duration spec, drawing from `rng`. */
export function sampler(spec: DurationSpec, rng: RandomStream): Sampler {
  if (typeof spec === 'number') return () => spec;
  return (distributions[spec.dist] as SamplerFactory<DistributionName> as (s: DistributionSpec, r: RandomStream) => Sampler)(spec, rng);
}
