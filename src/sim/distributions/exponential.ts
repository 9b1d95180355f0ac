import { z } from 'zod';
import { clampMs, defineDistribution } from './types.js';

/** `{dist: "exponential", meanMs}`: memoryless service or inter-arrival times (M/M/c models). */
export const exponential = defineDistribution({
  schema: z.strictObject({ dist: z.literal('exponential'), meanMs: z.number().positive() }),
  create: (spec, rng) => () => clampMs(-spec.meanMs * Math.log(1 - rng.next())),
  mean: (spec) => spec.meanMs,
});
