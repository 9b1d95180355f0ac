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
      process: z.literal('replay').meta({ description: 'Arrival process: arrivals at recorded times, from file or timestampsMs (exactly one).' }),
      file: z
        .string()
        .min(1)
        .optional()
        .meta({
          description:
            'A trace, relative to the scenario file: CSV (one ms offset per line, or a column named atMs or timestamp_ms) or a JSON array of numbers or of {atMs}.',
          examples: ['traces/monday.csv', 'arrivals.json'],
        }),
      timestampsMs: z
        .array(z.number().nonnegative())
        .optional()
        .meta({ description: 'Arrival times in ms, inline; shifted so the first is 0.', examples: [[0, 120, 130, 900, 2400]] }),
      speed: z
        .number()
        .positive()
        .default(1)
        .meta({ description: 'Replay speed: times are divided by it (2 = twice as fast). Default: 1.', examples: [1, 2, 0.5] }),
      loop: z
        .boolean()
        .default(false)
        .meta({ description: 'Repeat the trace until the traffic phase ends. Default: false.', examples: [false, true] }),
    })
    .refine((s) => (s.file === undefined) !== (s.timestampsMs === undefined), { message: 'give exactly one of file or timestampsMs' })
    .superRefine((s, ctx) => {
      const why = s.timestampsMs && loopProblem(s.timestampsMs, s.loop, s.speed);
      if (why) ctx.addIssue({ code: 'custom', path: ['loop'], message: why });
    }),
  create: (s) => {
    const ts = normalise(s.timestampsMs ?? [], s.speed);
    const span = loopSpan(ts);
    let i = 0;
    let offset = 0;
    return {
      next: () => {
        if (i >= ts.length) {
          // A loop must move time forward (validation refuses a zero span; this is the backstop).
          if (!s.loop || ts.length === 0 || !(span > 0)) return undefined;
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

/**
 * Why a trace cannot loop, or undefined. A trace whose timestamps are all equal (`[5, 5]`) spans
 * 0 ms: every repeat would land on the same instant, without end. A loop must last at least 1 ms
 * (after `speed`), so that each one moves time forward.
 */
export function loopProblem(raw: readonly number[], loop: boolean, speed = 1): string | undefined {
  if (!loop || raw.length < 2) return undefined;
  let lo = Infinity;
  let hi = -Infinity;
  for (const t of raw) {
    if (t < lo) lo = t;
    if (t > hi) hi = t;
  }
  if (hi === lo) return `a looped trace must span more than 0 ms: its ${raw.length} timestamps are all ${lo}`;
  // As loopSpan: the last time plus one mean gap.
  const last = (hi - lo) / speed;
  const span = last + last / (raw.length - 1);
  return span >= 1 ? undefined : `one loop of this trace lasts ${span} ms at speed ${speed}: a looped trace must last at least 1 ms`;
}
