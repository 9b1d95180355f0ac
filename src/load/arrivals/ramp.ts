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
    process: z.literal('ramp'),
    fromPerSec: rate,
    toPerSec: rate,
    /** Length of the ramp in ms; default the scenario's durationMs. */
    overMs: z.number().int().positive().optional(),
    /** Poisson arrivals around the ramp instead of evenly spaced ones. */
    poisson: z.boolean().default(false),
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
