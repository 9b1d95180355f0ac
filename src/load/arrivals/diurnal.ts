import { z } from 'zod';
import { RateProfile, type RatePoint } from './rate-profile.js';
import { defineArrival, RATE_MAX_PER_SEC } from './types.js';

/** Corners per period of the piecewise-linear cosine: 288 = every 5 min of a day (count error < 0.01 %). */
const CORNERS = 288;

/**
 * `{process: diurnal, meanPerSec, amplitude, periodMs?, peakAtMs?, poisson?}`: a daily cycle,
 * rate(t) = mean × (1 + amplitude × cos(2π (t − peakAtMs) / periodMs)). Defaults: a 24 h period
 * peaking at noon. Over whole periods the count is mean × duration.
 */
export const diurnal = defineArrival({
  schema: z.strictObject({
    process: z
      .literal('diurnal')
      .meta({ description: 'Arrival process: a daily cycle, rate(t) = meanPerSec × (1 + amplitude × cos(2π (t − peakAtMs) / periodMs)).' }),
    meanPerSec: z
      .number()
      .positive()
      .max(RATE_MAX_PER_SEC)
      .meta({ description: 'Mean rate over a period, in arrivals per second.', examples: [10, 100] }),
    amplitude: z
      .number()
      .min(0)
      .max(1)
      .default(0.8)
      .meta({ description: 'Swing around the mean, in [0, 1]: 0 = flat, 1 = the rate touches 0 at the trough. Default: 0.8.', examples: [0.8, 0.5] }),
    periodMs: z
      .number()
      .int()
      .positive()
      .default(86_400_000)
      .meta({ description: 'Length of one cycle in ms. Default: 86400000 (24 h).', examples: [86_400_000, 3_600_000] }),
    peakAtMs: z
      .number()
      .int()
      .nonnegative()
      .default(43_200_000)
      .meta({
        description: 'When the rate peaks, in ms from the start of the run. Default: 43200000 (noon of a run started at midnight).',
        examples: [43_200_000, 0],
      }),
    poisson: z
      .boolean()
      .default(true)
      .meta({ description: 'Poisson arrivals around the cycle instead of evenly spaced ones. Default: true.', examples: [true, false] }),
  }),
  create: (s, ctx) => profile(s, ctx.durationMs).generator(ctx.durationMs, s.poisson ? ctx.rng : undefined),
  expected: (s, d) => profile(s, d).integral(d),
  peakPerSec: (s) => s.meanPerSec * (1 + s.amplitude),
});

function profile(s: { meanPerSec: number; amplitude: number; periodMs: number; peakAtMs: number }, durationMs: number): RateProfile {
  const stepMs = s.periodMs / CORNERS;
  const pts: RatePoint[] = [];
  for (let t = 0; ; t += stepMs) {
    pts.push({ atMs: t, perSec: s.meanPerSec * (1 + s.amplitude * Math.cos((2 * Math.PI * (t - s.peakAtMs)) / s.periodMs)) });
    if (t > durationMs) break;
  }
  return new RateProfile(pts);
}
