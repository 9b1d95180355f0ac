import { z } from 'zod';
import { defineDistribution } from './types.js';

/** `{dist: "constant", ms}`: always `ms`. A bare integer means the same. */
export const constant = defineDistribution({
  schema: z.strictObject({ dist: z.literal('constant'), ms: z.number().int().nonnegative() }),
  create: (spec) => () => spec.ms,
  mean: (spec) => spec.ms,
});
