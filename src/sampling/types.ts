import type { DistributionName, SpecOf } from '../contract/duration-spec.js';
import type { RandomStream } from '../lib/random.js';

/** Draws one duration, an integer number of milliseconds >= 0. */
export type Sampler = () => number;

/** Builds a sampler over `rng` from a spec its schema (contract/duration-spec.ts) accepted. */
export type SamplerFactory<N extends DistributionName> = (spec: SpecOf<N>, rng: RandomStream) => Sampler;
