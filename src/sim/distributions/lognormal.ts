import { z } from 'zod';
import { clampMs, defineDistribution } from './types.js';

/** z-score of the 95th percentile of the standard normal distribution. */
const Z95 = 1.6448536269514722;

/**
 * `{dist: "lognormal", medianMs, p95Ms}`: the heavy right tail of real job and cold-start times,
 * parameterised by what people measure (median and p95) rather than mu and sigma.
 */
export const lognormal = defineDistribution({
  schema: z
    .strictObject({ dist: z.literal('lognormal'), medianMs: z.number().positive(), p95Ms: z.number().positive() })
    .refine((s) => s.p95Ms >= s.medianMs, { message: 'p95Ms must be >= medianMs', path: ['p95Ms'] }),
  create: (spec, rng) => {
    const mu = Math.log(spec.medianMs);
    const sigma = (Math.log(spec.p95Ms) - mu) / Z95;
    // Box-Muller gives two independent normals per pair of draws: the second (sin) is kept for
    // the next call. [has spare (0/1), spare] in a Float64Array: a number field would box.
    const spare = new Float64Array(2);
    return () => {
      let n: number;
      if (spare[0] === 1) {
        spare[0] = 0;
        n = spare[1]!;
      } else {
        // 1 - u keeps the log argument in (0, 1].
        const r = Math.sqrt(-2 * Math.log(1 - rng.next()));
        const a = 2 * Math.PI * rng.next();
        n = r * Math.cos(a);
        spare[0] = 1;
        spare[1] = r * Math.sin(a);
      }
      return clampMs(Math.exp(mu + sigma * n));
    };
  },
  mean: (spec) => {
    const sigma = (Math.log(spec.p95Ms) - Math.log(spec.medianMs)) / Z95;
    return spec.medianMs * Math.exp((sigma * sigma) / 2);
  },
});
