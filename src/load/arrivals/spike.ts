import { z } from 'zod';
import { RateProfile, type RatePoint } from './rate-profile.js';
import { defineArrival, RATE_MAX_PER_SEC } from './types.js';

const rate = z.number().nonnegative().max(RATE_MAX_PER_SEC);

/**
 * `{process: spike, basePerSec, spikePerSec, atMs, durationMs, rampMs?, poisson?}`: a base rate
 * with one burst at `spikePerSec` from `atMs` for `durationMs`, reached and left over `rampMs`
 * (default 0: a step).
 */
export const spike = defineArrival({
  schema: z.strictObject({
    process: z.literal('spike'),
    basePerSec: rate,
    spikePerSec: rate,
    atMs: z.number().int().nonnegative(),
    durationMs: z.number().int().positive(),
    rampMs: z.number().int().nonnegative().default(0),
    poisson: z.boolean().default(false),
  }),
  create: (s, ctx) => profile(s).generator(ctx.durationMs, s.poisson ? ctx.rng : undefined),
  expected: (s, d) => profile(s).integral(d),
  peakPerSec: (s) => Math.max(s.basePerSec, s.spikePerSec),
});

function profile(s: { basePerSec: number; spikePerSec: number; atMs: number; durationMs: number; rampMs: number }): RateProfile {
  // A step is a ramp of 1 µs: the profile stays piecewise linear and the count error is ~1e-3 arrivals.
  const r = Math.max(s.rampMs, 0.001);
  const pts: RatePoint[] = [{ atMs: 0, perSec: s.basePerSec }];
  if (s.atMs > 0) pts.push({ atMs: s.atMs, perSec: s.basePerSec });
  pts.push({ atMs: s.atMs + r, perSec: s.spikePerSec });
  pts.push({ atMs: s.atMs + r + s.durationMs, perSec: s.spikePerSec });
  pts.push({ atMs: s.atMs + 2 * r + s.durationMs, perSec: s.basePerSec });
  return new RateProfile(pts);
}
