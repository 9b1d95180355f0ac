import { z } from 'zod';
import { RateProfile } from './rate-profile.js';
import { defineArrival, RATE_MAX_PER_SEC } from './types.js';

/** `{process: constant, ratePerSec}`: evenly spaced arrivals, the first at 0 ms. */
export const constant = defineArrival({
  schema: z.strictObject({
    process: z.literal('constant').meta({ description: 'Arrival process: evenly spaced arrivals at ratePerSec, the first at 0 ms.' }),
    ratePerSec: z
      .number()
      .positive()
      .max(RATE_MAX_PER_SEC)
      .meta({ description: 'Arrivals per second (e.g. 0.2 = one every 5 s).', examples: [10, 0.2] }),
  }),
  create: (s, ctx) => new RateProfile([{ atMs: 0, perSec: s.ratePerSec }]).generator(ctx.durationMs),
  expected: (s, d) => (s.ratePerSec * d) / 1000,
  peakPerSec: (s) => s.ratePerSec,
});
