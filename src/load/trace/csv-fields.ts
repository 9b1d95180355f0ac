/**
 * The fields of a CSV trace's lines: split on commas, a field in double quotes may hold commas
 * (`""` for a quote); the header names the columns, matched without regard to case or spaces at
 * either end.
 */
import { RowError } from './trace-row.js';

export function splitCsv(line: string): string[] {
  if (!line.includes('"')) return line.split(',');
  const out: string[] = [];
  let f = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quoted) {
      if (c !== '"') f += c;
      else if (line[i + 1] === '"') (f += '"'), i++;
      else quoted = false;
    } else if (c === '"') quoted = true;
    else if (c === ',') out.push(f), (f = '');
    else f += c;
  }
  out.push(f);
  return out;
}

/** The index of each named column in a header line; a RowError names the first one missing. */
export function columnsOf(header: string, names: readonly string[]): number[] {
  const cols = splitCsv(header).map((c) => c.trim().toLowerCase());
  return names.map((n) => {
    const i = cols.indexOf(n.trim().toLowerCase());
    if (i < 0) throw new RowError(n, `no column named "${n}" in the header (it has: ${splitCsv(header).join(', ')})`);
    return i;
  });
}

/** Field `i` of `fields` as a number (`what` says which numbers are allowed); `name` names it in the error. */
export function numberAt(fields: readonly string[], i: number, name: string, whole: boolean): number {
  const raw = fields[i];
  if (raw === undefined) throw new RowError(name, 'missing (the line has fewer fields than the header)');
  return checkNumber(raw.trim() === '' ? Number.NaN : Number(raw), raw, name, whole);
}

/** `v` when a number >= 0 (whole when `whole`), else a RowError quoting `raw`. */
export function checkNumber(v: number, raw: unknown, name: string, whole: boolean): number {
  if (!(v >= 0) || !Number.isFinite(v) || (whole && !Number.isInteger(v)))
    throw new RowError(name, `${JSON.stringify(raw)} is not a ${whole ? 'whole number' : 'number'} >= 0`);
  return v;
}
