import { z } from 'zod';
import { RateProfile } from './rate-profile.js';
import { defineArrival, RATE_MAX_PER_SEC } from './types.js';

const rate = z.number().nonnegative().max(RATE_MAX_PER_SEC);

/**
 * `{process: ramp, fromPerSec, toPerSec, overMs?, poisson?}`: the rate moves linearly from
 * `fromPerSec` to `toPerSec` over `overMs` (default: the whole traffic phase), then holds.
 */
export const ramp = defineArrival({
  schema: z.strictObject({
    process: z.literal('ramp').meta({ description: 'Arrival process: the rate moves linearly from fromPerSec to toPerSec over overMs, then holds.' }),
    fromPerSec: rate.meta({ description: 'Rate at 0 ms, in arrivals per second.', examples: [0, 1] }),
    toPerSec: rate.meta({ description: 'Rate at the end of the ramp (and after it), in arrivals per second.', examples: [20, 100] }),
    overMs: z
      .number()
      .int()
      .positive()
      .optional()
      .meta({ description: "Length of the ramp in ms. Default: the scenario's durationMs.", examples: [300_000, 60_000] }),
    poisson: z
      .boolean()
      .default(false)
      .meta({ description: 'Poisson arrivals around the ramp instead of evenly spaced ones. Default: false.', examples: [false, true] }),
  }),
  create: (s, ctx) => profile(s, ctx.durationMs).generator(ctx.durationMs, s.poisson ? ctx.rng : undefined),
  expected: (s, d) => profile(s, d).integral(d),
  peakPerSec: (s) => Math.max(s.fromPerSec, s.toPerSec),
});

function profile(s: { fromPerSec: number; toPerSec: number; overMs?: number | undefined }, durationMs: number): RateProfile {
  return new RateProfile([
    { atMs: 0, perSec: s.fromPerSec },
    { atMs: s.overMs ?? durationMs, perSec: s.toPerSec },
  ]);
}
