/**
 * One metric of two runs side by side: A's and B's values, the change, and which way it went.
 * Units: `ms`; `count`; `rate`, a share of requests kept as a fraction (0.05 = 5 %) and shown in
 * percent, its change in percentage points.
 */
export type Unit = 'ms' | 'count' | 'rate';
/** Which value is the good one; `neither` for figures that only follow the load (requests sent). */
export type Better = 'lower' | 'higher' | 'neither';
/** How B compares with A: `more`/`fewer` for a `neither` metric; `n/a` when a side has no data. */
export type Direction = 'better' | 'worse' | 'same' | 'more' | 'fewer' | 'n/a';

export interface MetricRow {
  /** The metric's name within its group, e.g. `response p95`, `429 rate`. */
  label: string;
  unit: Unit;
  better: Better;
  /** Checked by `--fail-on-regression` (latency percentiles, error and 429 rates). */
  gated: boolean;
  /** The smallest worsening that counts as a regression, in `unit`; absent: the unit's (regression.ts REGRESSION_FLOOR). */
  floor?: number;
  /** null: the run has no data for it (no sample, or its report's version does not hold it). */
  a: number | null;
  b: number | null;
  /** b − a; null when either is. */
  delta: number | null;
  /** 100 × (b − a) / a; null when either is null or a is 0. */
  pct: number | null;
  direction: Direction;
}

export interface MetricSpec {
  label: string;
  unit: Unit;
  better: Better;
  gated?: boolean;
  /** As MetricRow `floor`. */
  floor?: number;
}

export function metricRow(spec: MetricSpec, a: number | null, b: number | null): MetricRow {
  const delta = a === null || b === null ? null : b - a;
  const pct = delta === null || a === 0 ? null : (100 * delta) / a!;
  return {
    label: spec.label,
    unit: spec.unit,
    better: spec.better,
    gated: spec.gated ?? false,
    ...(spec.floor === undefined ? {} : { floor: spec.floor }),
    a,
    b,
    delta,
    pct,
    direction: directionOf(spec.better, delta),
  };
}

function directionOf(better: Better, delta: number | null): Direction {
  if (delta === null) return 'n/a';
  if (delta === 0) return 'same';
  if (better === 'neither') return delta > 0 ? 'more' : 'fewer';
  return delta < 0 === (better === 'lower') ? 'better' : 'worse';
}
