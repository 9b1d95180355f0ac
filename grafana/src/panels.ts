/**
 * Builders for the panels, rows and variables of the loadlab dashboards. A dashboard is described
 * as rows of panel specs; `layout` numbers them (ids in order, from 1) and places them on Grafana's
 * 24-column grid, so the same description always gives the same JSON.
 */
import { DATASOURCE } from './datasource.js';
import type { CustomVariable, FieldOverride, GridPos, Panel, QueryVariable, RowPanel, Target, ThresholdStep } from './grafana-json.js';

/** Grafana unit ids used here: requests per second, seconds, 0–1 as %, plain numbers, bytes. */
export type Unit = 'reqps' | 's' | 'percentunit' | 'short' | 'bytes' | 'ops';

export interface Query {
  expr: string;
  legend: string;
  /** One value per series over the dashboard range (for totals). */
  instant?: boolean;
}

export interface PanelSpec {
  title: string;
  /** What the panel shows and which family it reads; shown as the panel's (i) tooltip. */
  description: string;
  unit: Unit;
  queries: Query[];
  kind?: 'timeseries' | 'heatmap' | 'bargauge';
  /** Stack the series (workers by state). */
  stack?: boolean;
  /** Threshold lines, e.g. 0.8 and 1 for headroom: yellow, then red. */
  thresholds?: [number, number];
  /** Series drawn as a dashed, unstacked line (a limit), by the query's refId. */
  limitLines?: string[];
  /** Columns of 24; default 12. */
  width?: number;
}

export interface RowSpec {
  title: string;
  panels: PanelSpec[];
}

const PANEL_HEIGHT = 8;
const REF_IDS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** Applied to every query of a dashboard. */
export interface QueryOptions {
  /** Each target's `interval` (min step, and the base of $__rate_interval), e.g. `$resolution`. */
  interval?: string;
}

function target(q: Query, i: number, format: Target['format'], o: QueryOptions): Target {
  const t: Target = { refId: REF_IDS[i]!, datasource: DATASOURCE, expr: q.expr, legendFormat: q.legend, format };
  if (o.interval) t.interval = o.interval;
  if (q.instant) Object.assign(t, { instant: true, range: false });
  return t;
}

function thresholdSteps(t: PanelSpec['thresholds']): ThresholdStep[] {
  return t
    ? [
        { color: 'green', value: null },
        { color: 'yellow', value: t[0] },
        { color: 'red', value: t[1] },
      ]
    : [{ color: 'green', value: null }];
}

function limitOverride(refId: string): FieldOverride {
  return {
    matcher: { id: 'byFrameRefID', options: refId },
    properties: [
      { id: 'custom.stacking', value: { group: 'limit', mode: 'none' } },
      { id: 'custom.lineStyle', value: { dash: [10, 10], fill: 'dash' } },
      { id: 'custom.fillOpacity', value: 0 },
      { id: 'color', value: { fixedColor: 'red', mode: 'fixed' } },
    ],
  };
}

function timeseries(s: PanelSpec): Pick<Panel, 'fieldConfig' | 'options'> {
  return {
    fieldConfig: {
      defaults: {
        unit: s.unit,
        min: 0,
        color: { mode: 'palette-classic' },
        custom: {
          drawStyle: 'line',
          lineWidth: 1,
          fillOpacity: s.stack ? 30 : 10,
          showPoints: 'never',
          spanNulls: false,
          stacking: { group: 'A', mode: s.stack ? 'normal' : 'none' },
          thresholdsStyle: { mode: s.thresholds ? 'line+area' : 'off' },
        },
        thresholds: { mode: 'absolute', steps: thresholdSteps(s.thresholds) },
      },
      overrides: (s.limitLines ?? []).map(limitOverride),
    },
    options: { legend: { displayMode: 'list', placement: 'bottom', showLegend: true }, tooltip: { mode: 'multi', sort: 'desc' } },
  };
}

function heatmap(s: PanelSpec): Pick<Panel, 'fieldConfig' | 'options'> {
  return {
    fieldConfig: { defaults: { unit: s.unit, custom: { hideFrom: { legend: false, tooltip: false, viz: false } } }, overrides: [] },
    options: {
      calculate: false,
      cellGap: 1,
      color: { mode: 'scheme', scheme: 'Oranges', steps: 64, exponent: 0.5, fill: 'dark-orange', reverse: false, scale: 'exponential' },
      yAxis: { axisPlacement: 'left', unit: s.unit, reverse: false },
      rowsFrame: { layout: 'le' },
      tooltip: { mode: 'single', yHistogram: true, showColorScale: false },
      legend: { show: true },
      exemplars: { color: 'rgba(255,0,255,0.7)' },
      cellValues: { unit: 'short' },
      filterValues: { le: 1e-9 },
    },
  };
}

function bargauge(s: PanelSpec): Pick<Panel, 'fieldConfig' | 'options'> {
  return {
    fieldConfig: {
      defaults: { unit: s.unit, min: 0, color: { mode: 'palette-classic' }, thresholds: { mode: 'absolute', steps: thresholdSteps(s.thresholds) } },
      overrides: [],
    },
    options: {
      displayMode: 'basic',
      orientation: 'horizontal',
      showUnfilled: true,
      valueMode: 'color',
      namePlacement: 'left',
      reduceOptions: { calcs: ['lastNotNull'], fields: '', values: false },
    },
  };
}

function panel(s: PanelSpec, id: number, gridPos: GridPos, o: QueryOptions): Panel {
  const kind = s.kind ?? 'timeseries';
  const format = kind === 'heatmap' ? 'heatmap' : 'time_series';
  const body = kind === 'heatmap' ? heatmap(s) : kind === 'bargauge' ? bargauge(s) : timeseries(s);
  return {
    id,
    type: kind,
    title: s.title,
    description: s.description,
    datasource: DATASOURCE,
    gridPos,
    targets: s.queries.map((q, i) => target(q, i, format, o)),
    ...body,
  };
}

/** Rows as `type: "row"` panels (expanded), each followed by its panels, flat as Grafana stores them. */
export function layout(rows: readonly RowSpec[], o: QueryOptions = {}): (Panel | RowPanel)[] {
  const out: (Panel | RowPanel)[] = [];
  let id = 1;
  let y = 0;
  for (const r of rows) {
    out.push({ id: id++, type: 'row', title: r.title, collapsed: false, gridPos: { x: 0, y: y++, w: 24, h: 1 }, panels: [] });
    let x = 0;
    for (const s of r.panels) {
      const w = s.width ?? 12;
      if (x + w > 24) {
        x = 0;
        y += PANEL_HEIGHT;
      }
      out.push(panel(s, id++, { x, y, w, h: PANEL_HEIGHT }, o));
      x += w;
    }
    y += PANEL_HEIGHT;
  }
  return out;
}

/** A multi-value query variable with All over `label_values(selector, label)`. */
export function variable(name: string, label: string, description: string, selector: string): QueryVariable {
  const definition = `label_values(${selector}, ${name})`;
  return {
    type: 'query',
    name,
    label,
    description,
    datasource: DATASOURCE,
    query: definition,
    definition,
    refresh: 2,
    multi: true,
    includeAll: true,
    allValue: '.*',
    current: { selected: true, text: ['All'], value: ['$__all'] },
    sort: 1,
    regex: '',
    hide: 0,
    options: [],
  };
}

/** A single-value variable over fixed values, the first selected. */
export function customVariable(name: string, label: string, description: string, values: readonly [string, ...string[]]): CustomVariable {
  return {
    type: 'custom',
    name,
    label,
    description,
    query: values.join(','),
    multi: false,
    includeAll: false,
    current: { selected: true, text: values[0], value: values[0] },
    options: values.map((v, i) => ({ selected: i === 0, text: v, value: v })),
    hide: 0,
  };
}
