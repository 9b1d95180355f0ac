/** The fixed frame of a loadlab dashboard: everything but its variables, annotations and panels. */
import type { Annotation, CustomVariable, Dashboard, Panel, QueryVariable, RowPanel } from './grafana-json.js';

export interface ShellSpec {
  uid: string;
  title: string;
  description: string;
  tags: string[];
  /** Default time range start, e.g. `now-1h`. */
  from: string;
  /** Auto-refresh ('' for none), e.g. `10s` for a live scrape. */
  refresh: string;
  annotations: Annotation[];
  variables: (QueryVariable | CustomVariable)[];
  panels: (Panel | RowPanel)[];
}

/** Grafana's own "Annotations & Alerts" entry, present in every saved dashboard. */
const BUILT_IN: Annotation = {
  builtIn: 1,
  datasource: { type: 'grafana', uid: '-- Grafana --' },
  enable: true,
  hide: true,
  iconColor: 'rgba(0, 211, 255, 1)',
  name: 'Annotations & Alerts',
  type: 'dashboard',
};

export function dashboardShell(s: ShellSpec): Dashboard {
  return {
    uid: s.uid,
    title: s.title,
    description: s.description,
    tags: s.tags,
    editable: true,
    graphTooltip: 1,
    refresh: s.refresh,
    schemaVersion: 39,
    version: 1,
    time: { from: s.from, to: 'now' },
    timepicker: {},
    timezone: 'browser',
    fiscalYearStartMonth: 0,
    liveNow: false,
    weekStart: '',
    links: [],
    annotations: { list: [BUILT_IN, ...s.annotations] },
    templating: { list: s.variables },
    panels: s.panels,
  };
}
