import { z } from 'zod';
import { clampMs, defineDistribution } from './types.js';

/** `{dist: "uniform", minMs, maxMs}`: uniform over [minMs, maxMs], rounded to whole ms. */
export const uniform = defineDistribution({
  schema: z
    .strictObject({ dist: z.literal('uniform'), minMs: z.number().nonnegative(), maxMs: z.number().nonnegative() })
    .refine((s) => s.maxMs >= s.minMs, { message: 'maxMs must be >= minMs', path: ['maxMs'] }),
  create: (spec, rng) => () => clampMs(spec.minMs + rng.next() * (spec.maxMs - spec.minMs)),
  mean: (spec) => (spec.minMs + spec.maxMs) / 2,
});
