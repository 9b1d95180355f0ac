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
    process: z.literal('spike').meta({ description: 'Arrival process: a base rate with one burst at spikePerSec from atMs for durationMs.' }),
    basePerSec: rate.meta({ description: 'Rate outside the spike, in arrivals per second.', examples: [2, 10] }),
    spikePerSec: rate.meta({ description: 'Rate during the spike, in arrivals per second.', examples: [50, 200] }),
    atMs: z
      .number()
      .int()
      .nonnegative()
      .meta({ description: 'When the spike starts, in ms from the start of the run.', examples: [60_000, 300_000] }),
    durationMs: z
      .number()
      .int()
      .positive()
      .meta({ description: 'How long the spike holds spikePerSec, in ms (not counting the ramps).', examples: [30_000, 120_000] }),
    rampMs: z
      .number()
      .int()
      .nonnegative()
      .default(0)
      .meta({ description: 'Time in ms to reach spikePerSec, and again to fall back to basePerSec. Default: 0 (a step).', examples: [0, 5000] }),
    poisson: z
      .boolean()
      .default(false)
      .meta({ description: 'Poisson arrivals around the profile instead of evenly spaced ones. Default: false.', examples: [false, true] }),
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
