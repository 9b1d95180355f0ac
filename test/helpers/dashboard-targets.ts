/**
 * The queries of the checked-in Grafana dashboards (grafana/dashboards/*.json) as the dashboard
 * tests run them: every panel target with an `expr` (in rows too: collapsed rows keep their panels
 * nested) and every annotation with one (kind "annotation", titled by its name), with what Grafana
 * needs to fill them in (variables, Min interval, annotation step). grafana-templating.ts fills
 * them in the way Grafana does.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { PromSeries } from './prometheus.js';

export const DASHBOARD_DIR = 'grafana/dashboards';

export interface DashboardTarget {
  dashboard: string;
  kind: 'panel' | 'annotation';
  /** The panel's title (with its row's, "row / panel"), or the annotation's name. */
  title: string;
  refId: string;
  expr: string;
  /** Grafana asks for one value per series at the end of the range (bar gauges of totals). */
  instant: boolean;
  /** The target's (or its panel's) "Min interval", e.g. "$resolution"; none: the data source's. */
  minInterval?: string;
  /** An annotation's `step`: Grafana runs its query with this step (and as $__interval). */
  step?: string;
}

export interface DashboardVariable {
  type: 'query' | 'custom' | 'interval' | 'constant' | 'textbox';
  name: string;
  /** query: the `label_values(…)` query; custom and interval: the comma-separated options. */
  query: string;
  multi: boolean;
  includeAll: boolean;
  allValue?: string;
  /** The value saved with the dashboard (custom, interval, constant, textbox). */
  current: string[];
}

export interface Dashboard {
  file: string;
  uid: string;
  title: string;
  json: any;
  variables: DashboardVariable[];
  targets: DashboardTarget[];
}

function panelTargets(dashboard: string, panels: any[], row: string | undefined, out: DashboardTarget[]): void {
  for (const p of panels ?? []) {
    if (p.type === 'row') {
      panelTargets(dashboard, p.panels ?? [], p.title, out);
      continue;
    }
    const title = row ? `${row} / ${p.title}` : String(p.title);
    for (const t of p.targets ?? []) {
      if (typeof t.expr !== 'string' || !t.expr.trim()) continue;
      const minInterval = [t.interval, p.interval].find((x) => typeof x === 'string' && x !== '');
      out.push({ dashboard, kind: 'panel', title, refId: String(t.refId ?? ''), expr: t.expr, instant: t.instant === true && t.range !== true, minInterval });
    }
  }
}

const VARIABLE_TYPES = ['query', 'custom', 'interval', 'constant', 'textbox'];

function variables(json: any): DashboardVariable[] {
  return (json.templating?.list ?? []).map((v: any): DashboardVariable => {
    if (!VARIABLE_TYPES.includes(v.type))
      throw new Error(`${json.title}: variable ${v.name} of type ${v.type}: the dashboard tests do not know how Grafana fills it`);
    const current = v.current?.value;
    return {
      type: v.type,
      name: v.name,
      query: typeof v.query === 'string' ? v.query : String(v.query?.query ?? v.definition ?? ''),
      multi: v.multi === true,
      includeAll: v.includeAll === true,
      allValue: typeof v.allValue === 'string' && v.allValue !== '' ? v.allValue : undefined,
      current: Array.isArray(current) ? current.map(String) : current === undefined ? [] : [String(current)],
    };
  });
}

/** Every dashboard under `dir` (default grafana/dashboards), by file name. */
export function readDashboards(dir = DASHBOARD_DIR): Dashboard[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => {
      const json = JSON.parse(readFileSync(join(dir, f), 'utf8'));
      const title = String(json.title);
      const targets: DashboardTarget[] = [];
      panelTargets(title, json.panels, undefined, targets);
      for (const a of json.annotations?.list ?? []) {
        if (typeof a.expr === 'string' && a.expr.trim()) {
          targets.push({
            dashboard: title,
            kind: 'annotation',
            title: `annotation ${a.name}`,
            refId: '',
            expr: a.expr,
            instant: false,
            step: typeof a.step === 'string' && a.step ? a.step : undefined,
          });
        }
      }
      return { file: f, uid: String(json.uid), title, json, variables: variables(json), targets };
    });
}

/** The dashboard with this uid; throws listing the uids there are. */
export function dashboardByUid(all: readonly Dashboard[], uid: string): Dashboard {
  const d = all.find((x) => x.uid === uid);
  if (!d) throw new Error(`no dashboard with uid ${uid} in ${DASHBOARD_DIR} (uids: ${all.map((x) => x.uid).join(', ')})`);
  return d;
}

/** At least one series with a number in it (NaN, e.g. a quantile of no observations, is what Grafana shows as no value). */
export const hasData = (series: readonly PromSeries[]) =>
  series.some((s) => (s.values ?? (s.value ? [s.value] : [])).some(([, v]) => !Number.isNaN(Number(v))));

/** `dashboard › title [refId]: expr` for failure messages. */
export const describeTarget = (t: DashboardTarget, expr = t.expr) => `${t.dashboard} › ${t.title}${t.refId ? ` [${t.refId}]` : ''}: ${expr}`;
