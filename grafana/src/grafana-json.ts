/**
 * The part of Grafana's dashboard JSON (schemaVersion 39, Grafana 10.4–11) the loadlab dashboards
 * use, as types: what the builders in panels.ts produce and what Grafana stores when a dashboard is
 * saved. Typed JSON rather than @grafana/grafana-foundation-sdk: the SDK is a 0.0.x pre-release
 * whose builders hide the JSON the tests and the Prometheus checks read (`targets[].expr`,
 * `templating.list`), and these few types keep the generator free of a new dependency.
 */

/** The provisioned Prometheus data source (grafana/provisioning/datasources/prometheus.yaml). */
export interface DataSourceRef {
  type: 'prometheus';
  uid: string;
}

export interface Target {
  refId: string;
  datasource: DataSourceRef;
  expr: string;
  legendFormat: string;
  /** heatmap: buckets by `le` for the heatmap panel; time_series otherwise. */
  format: 'time_series' | 'heatmap';
  /**
   * Min step: also the scrape interval Grafana's $__rate_interval is computed from (at least four
   * of it). A variable here lets one dashboard read 5 s scrapes and 1 min backfilled windows.
   */
  interval?: string;
  /** Instant queries: one value per series over the dashboard range (bar gauges of totals). */
  instant?: boolean;
  range?: boolean;
}

export interface ThresholdStep {
  color: string;
  value: number | null;
}

export interface FieldOverride {
  matcher: { id: 'byFrameRefID' | 'byName'; options: string };
  properties: { id: string; value: unknown }[];
}

export interface Panel {
  id: number;
  type: 'timeseries' | 'heatmap' | 'bargauge';
  title: string;
  description: string;
  datasource: DataSourceRef;
  gridPos: GridPos;
  targets: Target[];
  fieldConfig: { defaults: Record<string, unknown> & { unit: string }; overrides: FieldOverride[] };
  options: Record<string, unknown>;
}

export interface RowPanel {
  id: number;
  type: 'row';
  title: string;
  collapsed: false;
  gridPos: GridPos;
  panels: [];
}

export interface GridPos {
  x: number;
  y: number;
  w: number;
  h: number;
}

export interface QueryVariable {
  type: 'query';
  name: string;
  label: string;
  description: string;
  datasource: DataSourceRef;
  /** `label_values(selector, label)`: Grafana's classic Prometheus variable query. */
  query: string;
  definition: string;
  /** 1: refresh on dashboard load, 2: on time range change. */
  refresh: 2;
  multi: true;
  includeAll: true;
  /** Substituted for All: every value, and series without the label too. */
  allValue: '.*';
  current: { selected: true; text: string[]; value: string[] };
  sort: 1;
  regex: '';
  hide: 0;
  options: [];
}

/** A fixed list of values (the run dashboard's sample spacing). */
export interface CustomVariable {
  type: 'custom';
  name: string;
  label: string;
  description: string;
  query: string;
  multi: false;
  includeAll: false;
  current: { selected: true; text: string; value: string };
  options: { selected: boolean; text: string; value: string }[];
  hide: 0;
}

export interface Annotation {
  name: string;
  datasource: DataSourceRef | { type: 'grafana'; uid: '-- Grafana --' };
  enable: boolean;
  hide: boolean;
  iconColor: string;
  expr?: string;
  /** Prometheus annotations: the series' value (ms) is the event's time. */
  useValueForTime?: boolean;
  step?: string;
  titleFormat?: string;
  textFormat?: string;
  tagKeys?: string;
  builtIn?: 1;
  type?: 'dashboard';
}

export interface Dashboard {
  uid: string;
  title: string;
  description: string;
  tags: string[];
  editable: true;
  graphTooltip: 1;
  refresh: string;
  schemaVersion: 39;
  version: 1;
  time: { from: string; to: string };
  timepicker: Record<string, never>;
  timezone: 'browser';
  fiscalYearStartMonth: 0;
  liveNow: false;
  weekStart: '';
  links: [];
  annotations: { list: Annotation[] };
  templating: { list: (QueryVariable | CustomVariable)[] };
  panels: (Panel | RowPanel)[];
}
