import { z } from 'zod';
import { RateProfile, type RatePoint } from './rate-profile.js';
import { defineArrival, RATE_MAX_PER_SEC } from './types.js';

const stage = z.strictObject({
  /** Length of this stage in ms. */
  durationMs: z.number().int().positive(),
  /** Rate reached at the end of the stage (arrivals per second), linearly from the previous one. */
  targetPerSec: z.number().nonnegative().max(RATE_MAX_PER_SEC),
});

/**
 * `{process: stages, startPerSec?, stages: [{durationMs, targetPerSec}], poisson?}`: k6's
 * ramping-arrival-rate. After the last stage the last target holds.
 */
export const stages = defineArrival({
  schema: z.strictObject({
    process: z.literal('stages'),
    startPerSec: z.number().nonnegative().max(RATE_MAX_PER_SEC).default(0),
    stages: z.array(stage).min(1),
    poisson: z.boolean().default(false),
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
