import type { z } from 'zod';
import type { RandomStream } from '../random.js';

/** Draws one duration, an integer number of milliseconds >= 0. */
export type Sampler = () => number;

export interface DistributionKind<S extends z.ZodType = z.ZodType> {
  /** Schema of the spec object, `dist` key included. */
  readonly schema: S;
  /** Builds a sampler over `rng` from a spec the schema accepted. */
  create(spec: z.infer<S>, rng: RandomStream): Sampler;
  /** Mean of the distribution in ms (for planning and oracles). */
  mean(spec: z.infer<S>): number;
}

export const clampMs = (x: number): number => (x > 0 ? Math.round(x) : 0);

/** Declares a distribution kind with its spec type inferred from the schema. */
export function defineDistribution<S extends z.ZodType>(kind: DistributionKind<S>): DistributionKind<S> {
  return kind;
}
