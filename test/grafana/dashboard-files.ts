/**
 * The checked-in dashboards (grafana/dashboards/*.json) as Grafana reads them, and the pieces of
 * them the tests check: every query (panel targets, variable queries, annotations) with where it
 * comes from.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parse } from 'yaml';

export const REPO = resolve(import.meta.dirname, '..', '..');
export const GRAFANA = join(REPO, 'grafana');
export const DASHBOARDS = join(GRAFANA, 'dashboards');

export interface JsonPanel {
  id: number;
  type: string;
  title?: string;
  description?: string;
  datasource?: { type?: string; uid?: string };
  fieldConfig?: { defaults?: { unit?: string } };
  targets?: { refId: string; expr: string; interval?: string; datasource?: { uid?: string } }[];
  panels?: JsonPanel[];
}

export interface JsonDashboard {
  uid: string;
  title: string;
  panels: JsonPanel[];
  templating: { list: { name: string; type: string; query: string; multi?: boolean; includeAll?: boolean; datasource?: { uid?: string } }[] };
  annotations: { list: { name: string; expr?: string; useValueForTime?: boolean; datasource?: { uid?: string } }[] };
}

export function dashboardFiles(): string[] {
  return readdirSync(DASHBOARDS)
    .filter((f) => f.endsWith('.json'))
    .sort();
}

export function loadDashboards(): JsonDashboard[] {
  return dashboardFiles().map((f) => JSON.parse(readFileSync(join(DASHBOARDS, f), 'utf8')) as JsonDashboard);
}

/** Panels, rows' nested panels included, rows themselves excluded. */
export function panelsOf(d: JsonDashboard): JsonPanel[] {
  return d.panels.flatMap((p) => (p.type === 'row' ? (p.panels ?? []) : [p]));
}

export interface Query {
  where: string;
  expr: string;
}

/** Every PromQL text of a dashboard: panel targets (and their min step), variable queries, annotation queries. */
export function queriesOf(d: JsonDashboard): Query[] {
  return [
    ...panelsOf(d).flatMap((p) =>
      (p.targets ?? []).filter((t) => t.interval).map((t) => ({ where: `${d.uid} panel "${p.title}" ${t.refId} interval`, expr: t.interval! })),
    ),
    ...panelsOf(d).flatMap((p) => (p.targets ?? []).map((t) => ({ where: `${d.uid} panel "${p.title}" ${t.refId}`, expr: t.expr }))),
    ...d.templating.list.filter((v) => v.type === 'query').map((v) => ({ where: `${d.uid} variable ${v.name}`, expr: v.query })),
    ...d.annotations.list.filter((a) => a.expr !== undefined).map((a) => ({ where: `${d.uid} annotation ${a.name}`, expr: a.expr! })),
  ];
}

/** The uid of the provisioned Prometheus data source. */
export function provisionedDatasourceUid(): string {
  const y = parse(readFileSync(join(GRAFANA, 'provisioning', 'datasources', 'prometheus.yaml'), 'utf8')) as { datasources: { type: string; uid: string }[] };
  const prom = y.datasources.filter((d) => d.type === 'prometheus');
  if (prom.length !== 1) throw new Error(`expected one Prometheus data source in provisioning, found ${prom.length}`);
  return prom[0]!.uid;
}
