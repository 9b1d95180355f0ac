import { z } from 'zod';
import { TRACE_FORMATS } from '../trace/trace-row.js';
import { traceArrivals, traceExpected, tracePeakPerSec } from './trace-replay.js';
import { loopPeriodMs, loopTooShort, type TraceReplay } from '../trace/trace-scan.js';
import { defineArrival } from './types.js';

/**
 * `{process: replay, file | timestampsMs, format?, columns?, speed?, fromMs?, toMs?, loop?}`:
 * arrivals at recorded times. Without `format`, `file` is a CSV (one ms offset per line, or a
 * column named `atMs`/`timestamp_ms`) or a JSON array of numbers or of `{atMs}`, relative to the
 * scenario file; the loader reads it into `timestampsMs`. With `format` (azure, burstgpt,
 * mooncake, csv), `file` is a token trace: each row also gives its request's prompt and answer
 * length, and the file is read as the run goes (trace-replay.ts), never whole.
 * Times are made ms from the trace's first row; the window [fromMs, toMs) of that clock is kept,
 * shifted to start at 0 and divided by `speed`; `loop` repeats the window until the traffic phase
 * ends.
 */
const columnName = z.string().min(1);
const columnsSchema = z
  .strictObject({
    atMs: columnName
      .optional()
      .meta({ description: 'The column of arrival times in ms (any origin). Default: atMs, unless atS is given.', examples: ['atMs'] }),
    atS: columnName.optional().meta({ description: 'The column of arrival times in seconds (any origin), in place of atMs.', examples: ['time_s'] }),
    promptTokens: columnName
      .default('promptTokens')
      .meta({ description: 'The column of prompt lengths (tokens). Default: promptTokens.', examples: ['input_tokens'] }),
    outputTokens: columnName
      .default('outputTokens')
      .meta({ description: 'The column of answer lengths (tokens). Default: outputTokens.', examples: ['output_tokens'] }),
  })
  .refine((c) => c.atMs === undefined || c.atS === undefined, { message: 'give atMs or atS, not both' });

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
            'A trace, relative to the scenario file. Without format: CSV (one ms offset per line, or a column named atMs or timestamp_ms) or a JSON array of numbers or of {atMs}. With format: a trace of requests with their token counts, read as the run goes.',
          examples: ['traces/monday.csv', 'arrivals.json', 'traces/azure2023_conv.csv'],
        }),
      format: z
        .enum(TRACE_FORMATS)
        .optional()
        .meta({
          description:
            'The file is a trace of LLM requests with token counts: azure (CSV TIMESTAMP,ContextTokens,GeneratedTokens), burstgpt (CSV Timestamp in s, Request tokens, Response tokens), mooncake (JSON lines timestamp in ms, input_length, output_length, hash_ids) or csv (the columns named in columns). Each request sends a prompt of exactly its prompt tokens and asks for exactly its answer tokens (max_tokens, ignore_eos). A row whose answer is 0 tokens is skipped. Default: unset (the file holds times only).',
          examples: ['azure', 'mooncake'],
        }),
      columns: columnsSchema.optional().meta({
        description: 'format csv: the header names of its columns. Default: {atMs: atMs, promptTokens: promptTokens, outputTokens: outputTokens}.',
        examples: [{ atS: 'time_s', promptTokens: 'input_tokens', outputTokens: 'output_tokens' }],
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
      fromMs: z
        .number()
        .nonnegative()
        .default(0)
        .meta({
          description: "Replay only the trace's arrivals at or after this time, ms from its first arrival (before speed); it becomes time 0. Default: 0.",
          examples: [0, 600_000],
        }),
      toMs: z
        .number()
        .positive()
        .optional()
        .meta({
          description:
            "Replay only the trace's arrivals before this time, ms from its first arrival (before speed); a loop then lasts toMs − fromMs. Default: the end of the trace.",
          examples: [900_000],
        }),
      loop: z
        .boolean()
        .default(false)
        .meta({
          description:
            'Repeat the trace (its window) until the traffic phase ends; one loop lasts toMs − fromMs, or without toMs up to the last arrival plus one mean gap. Default: false.',
          examples: [false, true],
        }),
    })
    .refine((s) => (s.file === undefined) !== (s.timestampsMs === undefined), { message: 'give exactly one of file or timestampsMs' })
    .refine((s) => s.format === undefined || s.file !== undefined, { message: 'format needs file (a token trace is read from a file)', path: ['format'] })
    .refine((s) => s.columns === undefined || s.format === 'csv', { message: 'columns are for format csv', path: ['columns'] })
    .refine((s) => s.toMs === undefined || s.toMs > s.fromMs, { message: 'toMs must be greater than fromMs', path: ['toMs'] })
    .superRefine((s, ctx) => {
      const why = s.timestampsMs && loopProblem(s.timestampsMs, s.loop, s.speed, s);
      if (why) ctx.addIssue({ code: 'custom', path: ['loop'], message: why });
    }),
  create: (s) => {
    if (s.format !== undefined) return traceArrivals(traceOf(s), s.loop);
    const ts = normalise(s.timestampsMs ?? [], s.speed, s);
    const span = loopSpan(ts, s);
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
    if (s.format !== undefined) return traceExpected(traceOf(s), s.loop, d);
    const ts = normalise(s.timestampsMs ?? [], s.speed, s);
    const span = loopSpan(ts, s);
    if (!s.loop || span <= 0) return ts.filter((t) => t < d).length;
    return Math.floor(d / span) * ts.length + ts.filter((t) => t < d % span).length;
  },
  peakPerSec: (s) => {
    if (s.format !== undefined) return tracePeakPerSec(traceOf(s));
    const ts = normalise(s.timestampsMs ?? [], s.speed, s);
    let peak = 0;
    for (let i = 0, j = 0; i < ts.length; i++) {
      while (ts[i]! - ts[j]! >= 1000) j++;
      peak = Math.max(peak, i - j + 1);
    }
    return peak;
  },
});

/** The window of a trace's clock to replay (ms from its first arrival, before speed). */
interface Window {
  fromMs: number;
  toMs?: number | undefined;
}

/** A replay spec with a format, as trace-replay.ts reads it. */
export function traceOf(
  s: { file?: string | undefined; format?: TraceReplay['format'] | undefined; columns?: TraceReplay['columns']; speed: number } & Window,
): TraceReplay {
  return { path: s.file!, format: s.format!, columns: s.columns, fromMs: s.fromMs, toMs: s.toMs, speed: s.speed };
}

/** The times of the window, sorted, from its start, divided by speed. */
function normalise(raw: readonly number[], speed: number, w: Window): number[] {
  const sorted = [...raw].sort((a, b) => a - b);
  const t0 = sorted[0] ?? 0;
  const out: number[] = [];
  for (const t of sorted) {
    const at = t - t0;
    if (at >= w.fromMs && (w.toMs === undefined || at < w.toMs)) out.push((at - w.fromMs) / speed);
  }
  return out;
}

/** One loop of the normalised times `ts` (loopPeriodMs); 0 when the window holds none and has no end. */
function loopSpan(ts: readonly number[], w: Window & { speed: number }): number {
  if (w.toMs === undefined && ts.length === 0) return 0;
  return loopPeriodMs(w, { rows: ts.length, firstMs: ts[0]!, lastMs: ts[ts.length - 1]! });
}

/**
 * Why a trace cannot loop, or undefined. A trace whose timestamps are all equal (`[5, 5]`) spans
 * 0 ms: every repeat would land on the same instant, without end. A loop must last at least 1 ms
 * (after `speed`), so that each one moves time forward. `w`: the window replayed (default: all).
 */
export function loopProblem(raw: readonly number[], loop: boolean, speed = 1, w: Window = { fromMs: 0 }): string | undefined {
  if (!loop) return undefined;
  const ts = normalise(raw, speed, w);
  if (ts.length === 0) return raw.length === 0 ? undefined : `no timestamp of the trace lies in the window [${w.fromMs}, ${w.toMs ?? '∞'}) ms`;
  if (w.toMs === undefined && raw.length < 2) return undefined;
  if (w.toMs === undefined && ts.length > 1 && ts[0] === ts[ts.length - 1] && ts.length === raw.length)
    return `a looped trace must span more than 0 ms: its ${raw.length} timestamps are all ${raw[0]}`;
  const span = loopSpan(ts, { ...w, speed });
  return span >= 1 ? undefined : loopTooShort(span, speed);
}
