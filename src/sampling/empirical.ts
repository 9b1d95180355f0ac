import type { SamplerFactory } from './types.js';

/** Draws uniformly from measured samples (e.g. a trace). */
export const empirical: SamplerFactory<'empirical'> = (spec, rng) => {
  const xs = spec.samplesMs;
  return () => xs[Math.floor(rng.next() * xs.length)]!;
};
