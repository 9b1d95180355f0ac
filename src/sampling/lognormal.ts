import { Z95 } from '../contract/duration-spec.js';
import { clampMs } from '../lib/clamp-ms.js';
import type { SamplerFactory } from './types.js';

/** exp(mu + sigma × n), n standard normal, with mu and sigma from the median and p95. */
export const lognormal: SamplerFactory<'lognormal'> = (spec, rng) => {
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
};
