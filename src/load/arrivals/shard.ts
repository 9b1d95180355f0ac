/**
 * Shard I of N of an arrival process: of the unsharded sequence (arrival k = 0, 1, 2, … of one
 * flow) it keeps those with k mod N = I. The wrapped generator is the unsharded one, drawn from
 * the same seeded stream, and only filtered: so for every process, Poisson and replay included,
 * the N shards' schedules are disjoint and their union is exactly the unsharded schedule.
 * A closed flow has no schedule: its users are split instead, user i on shard i mod N
 * (closed-flow-driver.ts).
 */
import type { ArrivalGenerator } from './types.js';

/** Shard `index` of `count` (whole numbers, 0 <= index < count). */
export interface ArrivalShard {
  index: number;
  count: number;
}

export function shardArrivals(gen: ArrivalGenerator, shard: ArrivalShard): ArrivalGenerator {
  const { index, count } = shard;
  if (!(Number.isInteger(count) && count >= 1 && Number.isInteger(index) && index >= 0 && index < count)) {
    throw new RangeError(`shard ${index}/${count}: needs whole numbers with 0 <= index < count`);
  }
  if (count === 1) return gen;
  /** Index in the unsharded sequence of the next arrival `gen` gives. */
  let k = 0;
  // The request of the arrival kept is the one `gen` gave last: the filter returns right after it.
  return {
    ...(gen.request ? { request: () => gen.request!() } : {}),
    next: () => {
      // At most `count` draws per arrival kept; an ended generator stays ended.
      for (;;) {
        const t = gen.next();
        if (t === undefined) return undefined;
        if (k++ % count === index) return t;
      }
    },
  };
}
