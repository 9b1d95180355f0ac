/**
 * How compare.md, compare.html and the terminal print a MetricRow's figures: ms and counts as
 * grouped whole numbers (`1 234 ms`), stream times with their fraction (`6.47 ms`, `23.5 ms`),
 * rates in percent with their change in percentage points.
 */
import { groupDigits } from '../../lib/group-digits.js';
import { fineMsDigits } from '../fine-ms.js';
import type { MetricRow, Unit } from './metric-row.js';

/** `s` (n printed) with its sign: `+` when positive; none when it prints as 0 (`-0.0` → `0.0`). */
const signed = (s: string, n: number) => (Number(s.replace(/[^\d.-]/g, '')) === 0 ? s.replace('-', '') : n > 0 ? `+${s}` : s);

export function formatValue(unit: Unit, v: number | null): string {
  if (v === null) return '–';
  if (unit === 'rate') return `${(100 * v).toFixed(2)} %`;
  // A time with a fraction is a stream time kept to 0.01 ms (fine-ms.ts); other times are whole ms.
  const n = Number.isInteger(v) ? groupDigits(v) : groupDigits(v, unit === 'ms' ? fineMsDigits(v) : 2);
  return unit === 'ms' ? `${n} ms` : n;
}

/** B − A: `+12 ms`, `-3`, `+1.20 pp`. */
export function formatDelta(r: MetricRow): string {
  if (r.delta === null) return '–';
  if (r.unit === 'rate') return `${signed((100 * r.delta).toFixed(2), r.delta)} pp`;
  return signed(formatValue(r.unit, r.delta), r.delta);
}

/** The change relative to A: `+12.5 %`; `–` from a base of 0 or without data. */
export function formatPct(r: MetricRow): string {
  return r.pct === null ? '–' : `${signed(r.pct.toFixed(1), r.pct)} %`;
}

/** One line for the terminal and the regression list: `response p99 412 ms → 980 ms (+568 ms, +137.9 %)`. */
export function formatChange(r: MetricRow): string {
  return `${r.label} ${formatValue(r.unit, r.a)} → ${formatValue(r.unit, r.b)} (${formatDelta(r)}${r.pct === null ? '' : `, ${formatPct(r)}`})`;
}
