/**
 * A duration as a whole number of ms in [0, `maxMs`]: rounded; negative, zero and NaN give 0
 * (a negative lag from rounding, a sampled draw below zero). Used for sampled job times and for
 * what goes into a histogram (its trackable range as `maxMs`).
 */
export function clampMs(ms: number, maxMs = Infinity): number {
  return ms > 0 ? (ms < maxMs ? Math.round(ms) : maxMs) : 0;
}
