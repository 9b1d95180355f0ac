import { clampMs } from '../lib/clamp-ms.js';
import type { SamplerFactory } from './types.js';

/** Uniform over [minMs, maxMs], rounded to whole ms. */
export const uniform: SamplerFactory<'uniform'> = (spec, rng) => () => clampMs(spec.minMs + rng.next() * (spec.maxMs - spec.minMs));
