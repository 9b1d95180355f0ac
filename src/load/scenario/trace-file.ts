/**
 * Replay traces: CSV (one ms offset per line, or a header with an `atMs` / `timestamp_ms` /
 * `timestamp` column) or JSON (an array of numbers or of `{atMs}`). Returns the times, or a reason.
 *
 * Reading is bounded whatever the file holds: a CSV is read in CHUNK_BYTES pieces and reading
 * stops at the first timestamp past TRACE_MAX (or line past TRACE_MAX + 1, comments and blank
 * lines included), at a line longer than LINE_MAX_CHARS or at the first bad line; a JSON trace (parsed whole) is refused by its size before it is read.
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';

const COLUMNS = ['atms', 'timestamp_ms', 'timestamp', 'ms'];
/** Largest trace accepted (arrivals). */
export const TRACE_MAX = 10_000_000;
/** Longest CSV line (characters): a timestamp with a few more columns. */
export const LINE_MAX_CHARS = 4096;
/** Largest JSON trace (bytes); longer traces go in a CSV, which is streamed. */
export const JSON_MAX_BYTES = 256 * 1024 * 1024;
const CHUNK_BYTES = 1 << 20;

export function readTrace(path: string): number[] | string {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (e) {
    return `cannot read ${path}: ${(e as Error).message}`;
  }
  try {
    const out = /\.json$/i.test(path) ? readJson(fd) : readCsv(fd);
    if (typeof out === 'string') return `${path}: ${out}`;
    if (out.length === 0) return `${path}: the trace holds no timestamps`;
    return out;
  } catch (e) {
    return `cannot read ${path}: ${(e as Error).message}`;
  } finally {
    closeSync(fd);
  }
}

function readJson(fd: number): number[] | string {
  const size = fstatSync(fd).size;
  if (size > JSON_MAX_BYTES) return `a JSON trace may hold at most ${JSON_MAX_BYTES} bytes (this one: ${size}); write a longer trace as CSV`;
  const buf = Buffer.alloc(size);
  let got = 0;
  while (got < size) {
    const n = readSync(fd, buf, got, size - got, null);
    if (n === 0) break;
    got += n;
  }
  let v: unknown;
  try {
    v = JSON.parse(buf.toString('utf8', 0, got));
  } catch (e) {
    return (e as Error).message;
  }
  if (!Array.isArray(v)) return 'expected a JSON array';
  if (v.length > TRACE_MAX) return `more than ${TRACE_MAX} timestamps`;
  const out: number[] = [];
  for (const [i, x] of v.entries()) {
    const t = typeof x === 'number' ? x : (x as { atMs?: unknown } | null)?.atMs;
    if (typeof t !== 'number' || !(t >= 0)) return `item ${i}: expected a number >= 0 or {"atMs": number}`;
    out.push(t);
  }
  return out;
}

/** Lines of a file, read a chunk at a time; `line` returns a reason to stop, or undefined. */
function eachLine(fd: number, line: (l: string, n: number) => string | undefined): string | undefined {
  const buf = Buffer.alloc(CHUNK_BYTES);
  const dec = new StringDecoder('utf8');
  let rest = '';
  let n = 0;
  for (;;) {
    const got = readSync(fd, buf, 0, CHUNK_BYTES, null);
    const text = rest + (got > 0 ? dec.write(buf.subarray(0, got)) : dec.end());
    const parts = text.split('\n');
    rest = got > 0 ? parts.pop()! : '';
    for (const p of parts) {
      const why = line(p.endsWith('\r') ? p.slice(0, -1) : p, ++n);
      if (why) return why;
    }
    if (rest.length > LINE_MAX_CHARS) return `line ${n + 1} is longer than ${LINE_MAX_CHARS} characters`;
    if (got === 0) return undefined;
  }
}

function readCsv(fd: number): number[] | string {
  const out: number[] = [];
  let col = -1;
  const why = eachLine(fd, (l, n) => {
    if (n > TRACE_MAX + 1) return `more than ${TRACE_MAX + 1} lines (a header and ${TRACE_MAX} timestamps at most; reading stopped there)`;
    if (l.length > LINE_MAX_CHARS) return `line ${n} is longer than ${LINE_MAX_CHARS} characters`;
    if (l.trim() === '' || l.startsWith('#')) return undefined;
    if (col < 0) {
      col = 0;
      const first = l.split(',').map((c) => c.trim().toLowerCase());
      if (first.every((c) => Number.isNaN(Number(c)))) {
        col = first.findIndex((c) => COLUMNS.includes(c));
        return col < 0 ? `no column named ${COLUMNS.join(' / ')} in the header` : undefined;
      }
    }
    const t = Number(l.split(',')[col]);
    if (!(t >= 0)) return `line ${n}: "${l}" is not a timestamp >= 0`;
    if (out.length === TRACE_MAX) return `more than ${TRACE_MAX} timestamps (reading stopped at line ${n})`;
    out.push(t);
    return undefined;
  });
  return why ?? out;
}
