import { z } from 'zod';
import { defineDistribution } from './types.js';

/** `{dist: "empirical", samplesMs: [...]}`: draws uniformly from measured samples (e.g. a trace). */
export const empirical = defineDistribution({
  schema: z.strictObject({
    dist: z.literal('empirical'),
    samplesMs: z.array(z.number().int().nonnegative()).min(1),
  }),
  create: (spec, rng) => {
    const xs = spec.samplesMs;
    return () => xs[Math.floor(rng.next() * xs.length)]!;
  },
  mean: (spec) => spec.samplesMs.reduce((a, b) => a + b, 0) / spec.samplesMs.length,
});
