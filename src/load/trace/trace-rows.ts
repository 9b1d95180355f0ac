/**
 * A token trace's requests read forward from its file, one row at a time (LineReader: bounded
 * memory), checked as they come: token counts in range, times in order. Times become ms from the
 * trace's first row; only the rows in the window [fromMs, toMs) of that clock are given, and
 * reading stops at the first row past it. A row whose answer is 0 tokens is skipped and counted
 * (BurstGPT logs a failed request so: it has no answer to replay). Any other bad row throws a
 * TraceError naming its line and field.
 */
import { MAX_OUTPUT_TOKENS } from '../../contract/llm-config.js';
import { PROMPT_TOKENS_MAX } from '../behaviours/prompt-text.js';
import { LineReader } from './line-reader.js';
import { rowParser } from './trace-formats.js';
import { RowError, TraceError, type RowParser, type TraceColumns, type TraceFormat, type TraceRow } from './trace-row.js';

/** Where a token trace is and which part of it is replayed. */
export interface TraceSource {
  /** The file, resolved (the loader resolves it against the scenario's folder). */
  path: string;
  format: TraceFormat;
  columns?: TraceColumns | undefined;
  /** The window on the trace's clock (ms from its first row): [fromMs, toMs). */
  fromMs: number;
  toMs?: number | undefined;
}

export class TraceRows {
  /** Rows in the window skipped for an answer of 0 tokens. */
  skipped = 0;
  private readonly reader: LineReader;
  private readonly parse: RowParser;
  private origin: number | undefined;
  private prevMs = -Infinity;
  private done = false;

  constructor(private readonly src: TraceSource) {
    this.reader = new LineReader(src.path);
    this.parse = rowParser(src.format, src.columns);
  }

  /** The next row of the window, `atMs` in ms from `fromMs` (the trace's clock), or undefined past its end. */
  next(): TraceRow | undefined {
    while (!this.done) {
      const r = this.read();
      if (r === undefined) break;
      const at = r.atMs - this.origin!;
      if (at < this.src.fromMs) continue;
      if (this.src.toMs !== undefined && at >= this.src.toMs) break;
      if (r.outputTokens === 0) {
        this.skipped++;
        continue;
      }
      r.atMs = at - this.src.fromMs;
      return r;
    }
    this.done = true;
    return undefined;
  }

  /** The next row of the file, checked; undefined at its end. */
  private read(): TraceRow | undefined {
    for (;;) {
      const line = this.reader.next();
      if (line === undefined) return undefined;
      const n = this.reader.lineNo;
      let r: TraceRow | undefined;
      try {
        r = this.parse(line);
        if (r === undefined) continue;
        check(r, this.prevMs, this.parse.fields);
      } catch (e) {
        if (e instanceof RowError) throw new TraceError(n, e.field, e.reason);
        throw e;
      }
      this.prevMs = r.atMs;
      this.origin ??= r.atMs;
      return r;
    }
  }
}

function check(r: TraceRow, prevMs: number, f: RowParser['fields']): void {
  if (r.atMs < prevMs) throw new RowError(f.time, 'earlier than the row before it: a trace must be in time order');
  if (r.promptTokens > PROMPT_TOKENS_MAX) throw new RowError(f.prompt, `${r.promptTokens} tokens is more than ${PROMPT_TOKENS_MAX}`);
  if (r.outputTokens > MAX_OUTPUT_TOKENS)
    throw new RowError(f.output, `${r.outputTokens} tokens is more than ${MAX_OUTPUT_TOKENS} (the most a request may ask for)`);
}
