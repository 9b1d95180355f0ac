import { clampMs } from '../lib/clamp-ms.js';
import type { SamplerFactory } from './types.js';

/** Memoryless: `-mean × ln(1 - u)`. */
export const exponential: SamplerFactory<'exponential'> = (spec, rng) => () => clampMs(-spec.meanMs * Math.log(1 - rng.next()));
