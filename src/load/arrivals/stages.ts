import { z } from 'zod';
import { RateProfile, type RatePoint } from './rate-profile.js';
import { defineArrival, RATE_MAX_PER_SEC } from './types.js';

const stage = z.strictObject({
  durationMs: z
    .number()
    .int()
    .positive()
    .meta({ description: 'Length of this stage in ms.', examples: [60_000, 300_000] }),
  targetPerSec: z
    .number()
    .nonnegative()
    .max(RATE_MAX_PER_SEC)
    .meta({ description: 'Rate reached at the end of the stage, in arrivals per second, linearly from the previous one.', examples: [10, 50] }),
});

/**
 * `{process: stages, startPerSec?, stages: [{durationMs, targetPerSec}], poisson?}`: k6's
 * ramping-arrival-rate. After the last stage the last target holds.
 */
export const stages = defineArrival({
  schema: z.strictObject({
    process: z
      .literal('stages')
      .meta({ description: "Arrival process: k6's ramping-arrival-rate, linear from stage to stage; after the last stage its target holds." }),
    startPerSec: z
      .number()
      .nonnegative()
      .max(RATE_MAX_PER_SEC)
      .default(0)
      .meta({ description: 'Rate at 0 ms, in arrivals per second. Default: 0.', examples: [0, 5] }),
    stages: z
      .array(stage)
      .min(1)
      .meta({
        description: 'The stages in order, at least one: each moves the rate to targetPerSec over durationMs.',
        examples: [
          [
            { durationMs: 60_000, targetPerSec: 20 },
            { durationMs: 300_000, targetPerSec: 20 },
            { durationMs: 60_000, targetPerSec: 0 },
          ],
        ],
      }),
    poisson: z
      .boolean()
      .default(false)
      .meta({ description: 'Poisson arrivals around the profile instead of evenly spaced ones. Default: false.', examples: [false, true] }),
  }),
  create: (s, ctx) => profile(s).generator(ctx.durationMs, s.poisson ? ctx.rng : undefined),
  expected: (s, d) => profile(s).integral(d),
  peakPerSec: (s, d) => profile(s).peakPerSec(d),
});

function profile(s: { startPerSec: number; stages: { durationMs: number; targetPerSec: number }[] }): RateProfile {
  const pts: RatePoint[] = [{ atMs: 0, perSec: s.startPerSec }];
  let t = 0;
  for (const st of s.stages) {
    t += st.durationMs;
    pts.push({ atMs: t, perSec: st.targetPerSec });
  }
  return new RateProfile(pts);
}
