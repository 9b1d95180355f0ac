/**
 * Replay traces: CSV (one ms offset per line, or a header with an `atMs` / `timestamp_ms` /
 * `timestamp` column) or JSON (an array of numbers or of `{atMs}`). Returns the times, or a reason.
 */
import { readFileSync } from 'node:fs';

const COLUMNS = ['atms', 'timestamp_ms', 'timestamp', 'ms'];
/** Largest trace accepted (arrivals). */
export const TRACE_MAX = 10_000_000;

export function readTrace(path: string): number[] | string {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    return `cannot read ${path}: ${(e as Error).message}`;
  }
  const out = /\.json$/i.test(path) ? fromJson(text) : fromCsv(text);
  if (typeof out === 'string') return `${path}: ${out}`;
  if (out.length === 0) return `${path}: the trace holds no timestamps`;
  if (out.length > TRACE_MAX) return `${path}: more than ${TRACE_MAX} timestamps`;
  return out;
}

function fromJson(text: string): number[] | string {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    return (e as Error).message;
  }
  if (!Array.isArray(v)) return 'expected a JSON array';
  const out: number[] = [];
  for (const [i, x] of v.entries()) {
    const t = typeof x === 'number' ? x : (x as { atMs?: unknown } | null)?.atMs;
    if (typeof t !== 'number' || !(t >= 0)) return `item ${i}: expected a number >= 0 or {"atMs": number}`;
    out.push(t);
  }
  return out;
}

function fromCsv(text: string): number[] | string {
  const lines = text.split(/\r?\n/).filter((l) => l.trim() !== '' && !l.startsWith('#'));
  let col = 0;
  const first = lines[0]?.split(',').map((c) => c.trim().toLowerCase()) ?? [];
  if (first.length && first.every((c) => Number.isNaN(Number(c)))) {
    col = first.findIndex((c) => COLUMNS.includes(c));
    if (col < 0) return `no column named ${COLUMNS.join(' / ')} in the header`;
    lines.shift();
  }
  const out: number[] = [];
  for (const [i, l] of lines.entries()) {
    const t = Number(l.split(',')[col]);
    if (!(t >= 0)) return `line ${i + 1}: "${l}" is not a timestamp >= 0`;
    out.push(t);
  }
  return out;
}
