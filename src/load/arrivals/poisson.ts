import { z } from 'zod';
import { RateProfile } from './rate-profile.js';
import { defineArrival, RATE_MAX_PER_SEC } from './types.js';

/** `{process: poisson, ratePerSec}`: independent arrivals, exponential gaps of mean 1/rate. */
export const poisson = defineArrival({
  schema: z.strictObject({
    process: z.literal('poisson').meta({ description: 'Arrival process: independent arrivals, exponential gaps of mean 1/ratePerSec.' }),
    ratePerSec: z
      .number()
      .positive()
      .max(RATE_MAX_PER_SEC)
      .meta({ description: 'Mean arrivals per second.', examples: [5, 50] }),
  }),
  create: (s, ctx) => new RateProfile([{ atMs: 0, perSec: s.ratePerSec }]).generator(ctx.durationMs, ctx.rng),
  expected: (s, d) => (s.ratePerSec * d) / 1000,
  peakPerSec: (s) => s.ratePerSec,
});
