/**
 * One chart of an HTML page, over run time or against a value such as workersMax, as plain data:
 * what `chartHtml` (charts.ts) draws with uPlot in the browser. report.html builds these from one
 * RunResult (series.ts); plan.html from a plan (plan/plan-charts.ts); `loadlab compare` can overlay
 * two runs by putting both runs' series in one spec (same `x`, labels such as "A p95" / "B p95",
 * `dash` for the second run).
 *
 * ```ts
 * const spec: ChartSpec = { id: 'rps', title: 'Requests/s', unit: 'req/s', x: [0, 10, 20],
 *   series: [{ label: 'run', values: [1.2, 3, null] }] };
 * const page = `<head>${chartAssetsHtml()}</head><body>${chartHtml(spec)}</body>`;
 * ```
 */

/** One line (or stacked area) of a chart. */
export interface ChartSeries {
  /** Legend label; the legend also shows the value under the cursor. */
  label: string;
  /** One value per `x`; null is a gap (no data in that window). */
  values: (number | null)[];
  /**
   * Drawn as a filled area on top of the previous stacked series of the same chart (429s by
   * cause); the legend still shows the series' own value.
   */
  stacked?: boolean;
  /** CSS colour; default: the palette by position. */
  color?: string;
  /** Dashed line (a limit, a second run, a lower percentile). */
  dash?: boolean;
  /** Line width in CSS px (default 1.5). */
  width?: number;
  /** A dot at each value and no line (one seed's values, a scatter of grid points). */
  points?: boolean;
  /** The line joins across null values (a line through the few x that have one, e.g. a Pareto front). */
  spanGaps?: boolean;
  /**
   * A line to read the data against (a limit, a model's prediction), not data itself: a chart whose
   * only values are in reference series has nothing to show and is not drawn (`hasData`).
   */
  reference?: boolean;
}

/**
 * What the x axis is: run time (seconds, shown as h:mm:ss; the default), or a plain number such as
 * workersMax or dollars per hour, with its label (integer ticks when every x is an integer).
 */
export type ChartXAxis = { kind: 'time' } | { kind: 'value'; label: string; unit?: string };

export interface ChartSpec {
  /** Unique on the page; a DOM id and the key of `window.loadlabCharts[id]` (the uPlot instance). */
  id: string;
  title: string;
  /** One line under the title: how the points were computed (e.g. downsampling). */
  subtitle?: string;
  /** The y axis label (e.g. `req/s`, `ms`). */
  unit: string;
  /** Logarithmic y axis (for values spanning orders of magnitude; a value <= 0 is not drawn). */
  yLog?: boolean;
  /** Ascending. Time axis: seconds since the start of the run, shown as h:mm:ss. */
  x: number[];
  /** Default `{ kind: 'time' }`. Charts sharing an x axis share the cursor when hovered. */
  xAxis?: ChartXAxis;
  series: ChartSeries[];
  /**
   * Why the chart may have nothing to draw, shown in its place when no series other than a
   * reference has a value (e.g. "No queue delay in these runs: …"); default `NO_DATA`.
   */
  noData?: string;
}

/** The line that stands in place of a chart with nothing to draw, when its spec says no better. */
export const NO_DATA = 'Nothing to draw: no point has a value.';

/** Whether a chart has something to draw: a finite value in a series that is not a reference line. */
export function hasData(spec: ChartSpec): boolean {
  return spec.x.length > 0 && spec.series.some((s) => !s.reference && s.values.some((v) => typeof v === 'number' && Number.isFinite(v)));
}
