import type { SamplerFactory } from './types.js';

/** Always `spec.ms`. */
export const constant: SamplerFactory<'constant'> = (spec) => () => spec.ms;
