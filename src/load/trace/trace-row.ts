/**
 * One request of a token trace: when it came (the trace's own clock, ms) and how long its prompt
 * and its answer were (tokens). Mooncake rows also name their prompt's 512-token blocks.
 */
import type { TraceRequest } from '../arrivals/types.js';

/** The trace formats with token counts (`arrival.format`). */
export const TRACE_FORMATS = ['azure', 'burstgpt', 'mooncake', 'csv'] as const;
export type TraceFormat = (typeof TRACE_FORMATS)[number];

export interface TraceRow extends TraceRequest {
  /** The trace's clock in ms (absolute: wall clock, or seconds × 1000, as the format has it). */
  atMs: number;
}

/** A `csv` trace's column names (`arrival.columns`): a time column (ms or s) and the two token counts. */
export interface TraceColumns {
  atMs?: string | undefined;
  atS?: string | undefined;
  promptTokens: string;
  outputTokens: string;
}

/** A row a format refuses: the field (column or key) and why. */
export class RowError extends Error {
  constructor(
    readonly field: string,
    readonly reason: string,
  ) {
    super(`${field}: ${reason}`);
  }
}

/** A trace line refused: its number (1-based), the field (column or key; `(line)`: the whole line) and why. */
export class TraceError extends Error {
  constructor(
    readonly line: number,
    readonly field: string,
    readonly reason: string,
  ) {
    super(`line ${line}, ${field === '(line)' ? 'the line' : `field ${field}`}: ${reason}`);
  }
}

/** What a format makes of one line: a row, or `undefined` for a line that is no row (blank, comment, header). */
export type RowParser = ((line: string) => TraceRow | undefined) & {
  /** The format's names of the time and token fields (error messages). */
  readonly fields: { readonly time: string; readonly prompt: string; readonly output: string };
};
