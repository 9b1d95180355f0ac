/**
 * The token trace formats, each a parser of one line into a TraceRow (a RowError names the field
 * and the reason):
 * - `azure` (Azure LLM inference trace 2023): CSV `TIMESTAMP,ContextTokens,GeneratedTokens`, the
 *   time a wall clock "2023-11-16 18:17:03.9799600" (up to 9 fraction digits, no zone: read as UTC).
 * - `burstgpt`: CSV with `Timestamp` (seconds), `Request tokens`, `Response tokens`; other columns
 *   (Model, Log Type, …) are ignored.
 * - `mooncake`: JSON lines `{"timestamp": ms, "input_length", "output_length", "hash_ids": [...]}`.
 * - `csv`: the columns `columns` names: `atMs` or `atS`, `promptTokens`, `outputTokens`.
 * A CSV's first line that is not blank or a `#` comment is its header.
 */
import { checkNumber, columnsOf, numberAt, splitCsv } from './csv-fields.js';
import { RowError, type RowParser, type TraceColumns, type TraceFormat, type TraceRow } from './trace-row.js';

/** Default column names of a `csv` trace. */
export const CSV_DEFAULT_COLUMNS: TraceColumns = { atMs: 'atMs', promptTokens: 'promptTokens', outputTokens: 'outputTokens' };

/** A parser of `format`'s lines; a CSV format reads its header from the first line it is given. */
export function rowParser(format: TraceFormat, columns: TraceColumns = CSV_DEFAULT_COLUMNS): RowParser {
  if (format === 'mooncake') return Object.assign(mooncakeRow, { fields: { time: 'timestamp', prompt: 'input_length', output: 'output_length' } });
  const [time, prompt, output, scale]: [string, string, string, number] =
    format === 'azure'
      ? ['TIMESTAMP', 'ContextTokens', 'GeneratedTokens', 0]
      : format === 'burstgpt'
        ? ['Timestamp', 'Request tokens', 'Response tokens', 1000]
        : columns.atS !== undefined
          ? [columns.atS, columns.promptTokens, columns.outputTokens, 1000]
          : [columns.atMs ?? 'atMs', columns.promptTokens, columns.outputTokens, 1];
  let cols: number[] | undefined;
  const parse = (line: string): TraceRow | undefined => {
    if (line.trim() === '' || line.startsWith('#')) return undefined;
    if (cols === undefined) {
      cols = columnsOf(line, [time, prompt, output]);
      return undefined;
    }
    const f = splitCsv(line);
    const atMs = scale === 0 ? wallClockMs(f[cols[0]!], time) : numberAt(f, cols[0]!, time, false) * scale;
    return { atMs, promptTokens: numberAt(f, cols[1]!, prompt, true), outputTokens: numberAt(f, cols[2]!, output, true) };
  };
  return Object.assign(parse, { fields: { time, prompt, output } });
}

const WALL_CLOCK = /^\s*(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?\s*$/;

/** "2023-11-16 18:17:03.9799600" as ms since the epoch (UTC), the fraction kept. */
function wallClockMs(raw: string | undefined, name: string): number {
  const m = raw === undefined ? null : WALL_CLOCK.exec(raw);
  if (!m) throw new RowError(name, `${JSON.stringify(raw ?? '')} is not a time "YYYY-MM-DD hh:mm:ss.fffffff"`);
  const [, y, mo, d, h, mi, s, frac] = m;
  const ms = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s));
  if (Number.isNaN(ms)) throw new RowError(name, `${JSON.stringify(raw)} is not a valid date`);
  return ms + (frac ? Number(`0.${frac}`) * 1000 : 0);
}

function mooncakeRow(line: string): TraceRow | undefined {
  if (line.trim() === '') return undefined;
  let o: unknown;
  try {
    o = JSON.parse(line);
  } catch (e) {
    throw new RowError('(line)', `not JSON: ${(e as Error).message}`);
  }
  if (typeof o !== 'object' || o === null || Array.isArray(o)) throw new RowError('(line)', 'not a JSON object');
  const r = o as Record<string, unknown>;
  const num = (k: string, whole: boolean): number => {
    if (typeof r[k] !== 'number') throw new RowError(k, r[k] === undefined ? 'missing' : `${JSON.stringify(r[k])} is not a number`);
    return checkNumber(r[k], r[k], k, whole);
  };
  const ids = r.hash_ids;
  if (ids !== undefined && (!Array.isArray(ids) || !ids.every((x) => Number.isSafeInteger(x) && x >= 0)))
    throw new RowError('hash_ids', 'not an array of whole numbers >= 0');
  return {
    atMs: num('timestamp', false),
    promptTokens: num('input_length', true),
    outputTokens: num('output_length', true),
    ...(ids === undefined ? {} : { hashIds: ids as number[] }),
  };
}
