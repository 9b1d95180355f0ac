import { z } from 'zod';
import { defineArrival } from './types.js';

/**
 * `{process: replay, file | timestampsMs, speed?, loop?}`: arrivals at recorded times. `file` is a
 * CSV (one ms offset per line, or a column named `atMs`/`timestamp_ms`) or a JSON array of numbers
 * or of `{atMs}`, relative to the scenario file; the loader reads it into `timestampsMs`.
 * Times are shifted so the first is 0 and divided by `speed`; `loop` repeats the trace until the
 * traffic phase ends.
 */
export const replay = defineArrival({
  schema: z
    .strictObject({
      process: z.literal('replay'),
      file: z.string().min(1).optional(),
      timestampsMs: z.array(z.number().nonnegative()).optional(),
      speed: z.number().positive().default(1),
      loop: z.boolean().default(false),
    })
    .refine((s) => (s.file === undefined) !== (s.timestampsMs === undefined), { message: 'give exactly one of file or timestampsMs' }),
  create: (s) => {
    const ts = normalise(s.timestampsMs ?? [], s.speed);
    const span = loopSpan(ts);
    let i = 0;
    let offset = 0;
    return {
      next: () => {
        if (i >= ts.length) {
          if (!s.loop || ts.length === 0) return undefined;
          i = 0;
          offset += span;
        }
        return offset + ts[i++]!;
      },
    };
  },
  expected: (s, d) => {
    const ts = normalise(s.timestampsMs ?? [], s.speed);
    const span = loopSpan(ts);
    if (!s.loop || span <= 0) return ts.filter((t) => t < d).length;
    return Math.floor(d / span) * ts.length + ts.filter((t) => t < d % span).length;
  },
  peakPerSec: (s) => {
    const ts = normalise(s.timestampsMs ?? [], s.speed);
    let peak = 0;
    for (let i = 0, j = 0; i < ts.length; i++) {
      while (ts[i]! - ts[j]! >= 1000) j++;
      peak = Math.max(peak, i - j + 1);
    }
    return peak;
  },
});

function normalise(raw: readonly number[], speed: number): number[] {
  const sorted = [...raw].sort((a, b) => a - b);
  const t0 = sorted[0] ?? 0;
  return sorted.map((t) => (t - t0) / speed);
}

/** One loop of a trace lasts from its first time to its last plus one mean gap. */
function loopSpan(ts: readonly number[]): number {
  if (ts.length === 0) return 0;
  const last = ts[ts.length - 1]!;
  return last + (ts.length > 1 ? last / (ts.length - 1) : 1);
}
