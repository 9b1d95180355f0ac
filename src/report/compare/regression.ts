/**
 * `--fail-on-regression PCT`: which gated metrics got worse by more than PCT percent of A's value.
 * A change must also reach a floor, so noise on a tiny base does not count: 1 ms for latencies
 * (0.1 ms for the stream times TTFT, ITL and TPOT, kept to 0.01 ms: at a token every ~6 ms, 1 ms
 * would hide a 15 % worsening), 0.1 percentage point for the 429 and error rates. From a base of 0 (where any growth is
 * +∞ %), a change of at least the floor counts. A metric with no data on either side is not
 * checked.
 */
import type { Comparison } from './comparison.js';
import type { MetricRow, Unit } from './metric-row.js';

/** The smallest worsening that counts, per unit (rates are fractions: 0.001 = 0.1 pp). */
export const REGRESSION_FLOOR: Readonly<Record<Unit, number>> = { ms: 1, rate: 0.001, count: 1 };
/** The floor of the stream times (ms), kept to 0.01 ms. */
export const STREAM_TIME_FLOOR_MS = 0.1;

export interface Regression {
  /** `operation run`, `flow spike`, or `run` for the whole run. */
  where: string;
  row: MetricRow;
}

export function isRegression(row: MetricRow, pct: number): boolean {
  if (!row.gated || row.delta === null || row.direction !== 'worse') return false;
  const worse = Math.abs(row.delta);
  // A tiny tolerance: rates are fractions, and 0.002 − 0.001 is not exactly 0.001.
  if (worse < (row.floor ?? REGRESSION_FLOOR[row.unit]) - 1e-12) return false;
  return row.pct === null || Math.abs(row.pct) > pct;
}

export function regressions(c: Comparison, pct: number): Regression[] {
  return [
    ...c.operations.flatMap((g) => g.rows.filter((r) => isRegression(r, pct)).map((row) => ({ where: `operation ${g.name}`, row }))),
    ...c.flows.flatMap((g) => g.rows.filter((r) => isRegression(r, pct)).map((row) => ({ where: `flow ${g.name}`, row }))),
    ...c.totals.filter((r) => isRegression(r, pct)).map((row) => ({ where: 'run', row })),
  ];
}
