/**
 * Grafana's templating, done as Grafana does it before it sends a query to Prometheus, so the
 * dashboard tests ask a real Prometheus exactly what a user's Grafana would ask.
 *
 * - Query variables: `label_values(selector, label)` or `label_values(label)`, answered by
 *   Prometheus' /api/v1/label/<label>/values over the queried range, after substituting the
 *   variables before them (chained variables). A multi-value or All variable becomes Grafana's
 *   regex form: the allValue when All is chosen and the variable has one, else `(a|b)` of the
 *   regex-escaped values (a single value alone, unbracketed).
 * - Custom, interval, constant and textbox variables: the values the caller fixes, else the
 *   dashboard's current value.
 * - Built-ins: `$__rate_interval`, `$__interval`, `$__interval_ms`, `$__range`, `$__range_s`,
 *   `$__range_ms`, `$__from`, `$__to` (ms), also as `${…}`, by Grafana's rule (intervalsFor):
 *   min step = the target's `interval` (its "Min interval", variables substituted) or else the
 *   data source's `timeInterval` (grafana/provisioning); $__interval = max(range ÷ max data
 *   points, min step); $__rate_interval = max($__interval + min step, 4 × min step); the
 *   query_range step is $__interval, the range aligned to it (start down, end up); an annotation
 *   runs with its own `step` as step and $__interval. (Grafana also rounds $__interval to a
 *   "nice" value when the range dominates; the ranges here are short enough that the min step
 *   always does.)
 * An unknown variable is an error naming the panel and the expression.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { describeTarget, type Dashboard, type DashboardTarget, type DashboardVariable } from './dashboard-targets.js';
import type { Prometheus } from './prometheus.js';

export const DATASOURCE_DIR = 'grafana/provisioning/datasources';

/** The dashboard's time range and what Grafana derives the intervals from. */
export interface Timing {
  /** The dashboard's range, Unix seconds. */
  fromS: number;
  toS: number;
  /** The data source's `timeInterval` (its scrape interval), seconds: provisionedScrapeIntervalS(). */
  dataSourceIntervalS: number;
  /** A panel's max data points (about its width in pixels); default 1000. */
  maxDataPoints?: number;
}

/** $__interval and $__rate_interval of one target, and the query_range step (= $__interval). */
export interface Intervals {
  intervalS: number;
  rateIntervalS: number;
}

/** The `timeInterval` of the provisioned Prometheus data source (uid `uid`), in seconds; Grafana's 15 s when it sets none. */
export function provisionedScrapeIntervalS(uid = 'loadlab-prometheus', dir = DATASOURCE_DIR): number {
  for (const f of readdirSync(dir).filter((x) => /\.ya?ml$/.test(x))) {
    const ds = (parseYaml(readFileSync(join(dir, f), 'utf8'))?.datasources ?? []).find((d: any) => d.uid === uid);
    if (ds) return ds.jsonData?.timeInterval ? durationS(ds.jsonData.timeInterval) : 15;
  }
  throw new Error(`no data source with uid ${uid} in ${dir}`);
}

/** Grafana's prometheusSpecialRegexEscape: regex metacharacters escaped for a PromQL string. */
const regexEscape = (v: string) => v.replace(/\\/g, '\\\\\\\\').replace(/[$^*{}[\]'+?.()|]/g, '\\\\$&');
/** Grafana's prometheusRegularEscape for single-value variables. */
const plainEscape = (v: string) => v.replace(/\\/g, '\\\\').replace(/'/g, "\\\\'");

/** The chosen values of one variable: `all` (Grafana's "All") or a list. */
export type Choice = { all: true; values: string[] } | { all: false; values: string[] };

/** What Grafana writes in a PromQL query for the variable `v` with this choice. */
export function formatVariable(v: DashboardVariable, c: Choice): string {
  if (!v.multi && !v.includeAll) return plainEscape(c.values[0] ?? '');
  if (c.all && v.allValue !== undefined) return v.allValue;
  const esc = c.values.map(regexEscape);
  return esc.length === 1 ? esc[0]! : `(${esc.join('|')})`;
}

/** A Grafana/Prometheus duration ("5s", "1m", "250ms") in seconds. */
export function durationS(d: string): number {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h|d)$/.exec(d.trim());
  if (!m) throw new Error(`not a Grafana duration: ${d}`);
  return Number(m[1]) * { ms: 0.001, s: 1, m: 60, h: 3600, d: 86400 }[m[2] as 'ms'];
}

/** Seconds as a PromQL duration in ms (exact, and valid in every Prometheus version). */
const promDuration = (s: number) => `${Math.round(s * 1000)}ms`;

/** Grafana's rule for one target's $__interval and $__rate_interval (see the header). */
export function intervalsFor(t: DashboardTarget, values: Record<string, string>, timing: Timing): Intervals {
  if (t.step) {
    const stepS = durationS(substitute(t.step, values, undefined, describeTarget(t)));
    return { intervalS: stepS, rateIntervalS: Math.max(stepS + timing.dataSourceIntervalS, 4 * timing.dataSourceIntervalS) };
  }
  const minStepS = t.minInterval ? durationS(substitute(t.minInterval, values, undefined, describeTarget(t))) : timing.dataSourceIntervalS;
  const intervalS = Math.max(Math.ceil((timing.toS - timing.fromS) / (timing.maxDataPoints ?? 1000)), minStepS);
  return { intervalS, rateIntervalS: Math.max(intervalS + minStepS, 4 * minStepS) };
}

function builtins(t: Timing, iv: Intervals): Record<string, string> {
  const rangeS = Math.max(1, Math.round(t.toS - t.fromS));
  return {
    __rate_interval: promDuration(iv.rateIntervalS),
    __interval: promDuration(iv.intervalS),
    __interval_ms: String(Math.round(iv.intervalS * 1000)),
    __range: `${rangeS}s`,
    __range_s: String(rangeS),
    __range_ms: String(rangeS * 1000),
    __from: String(Math.round(t.fromS * 1000)),
    __to: String(Math.round(t.toS * 1000)),
  };
}

/**
 * `expr` with every `$name`, `${name}`, `${name:format}` and `[[name]]` replaced: dashboard
 * variables from `values` (already formatted), built-ins from `timing` and `iv` (none when
 * `timing` is undefined). Throws on an unknown one.
 */
export function substitute(expr: string, values: Record<string, string>, timing: Timing | undefined, where = expr, iv?: Intervals): string {
  const known = { ...(timing && iv ? builtins(timing, iv) : {}), ...values };
  return expr.replace(/\$\{(\w+)(?::[\w:]+)?\}|\$(\w+)|\[\[(\w+)\]\]/g, (m, a?: string, b?: string, c?: string) => {
    const name = (a ?? b ?? c)!;
    const v = known[name];
    if (v === undefined) throw new Error(`${where}: unknown variable ${m} (known: ${Object.keys(known).join(', ')})`);
    return v;
  });
}

/** `label_values(selector, label)` → [label, selector]; `label_values(label)` → [label, undefined]. */
export function parseLabelValues(query: string): [string, string | undefined] {
  const m = /^\s*label_values\(\s*(?:(.*)\s*,\s*)?([a-zA-Z_][a-zA-Z0-9_]*)\s*\)\s*$/s.exec(query);
  if (!m) throw new Error(`variable query is not label_values(…): ${query}`);
  return [m[2]!, m[1]?.trim() || undefined];
}

/** The dashboard's variables as Grafana would write them into queries, and what a user would see wrong in them. */
export interface ResolvedVariables {
  values: Record<string, string>;
  /** A variable whose query found nothing (its dropdown is empty), or a fixed value it does not offer. */
  problems: string[];
}

/**
 * Resolves the dashboard's variables in order against Prometheus over the timing's range, as
 * Grafana does on load: a variable in `fixed` takes those values; any other takes All (every value
 * its query returns; Grafana writes the allValue when there is one, whatever the values).
 */
export async function resolveVariables(d: Dashboard, prom: Prometheus, timing: Timing, fixed: Record<string, string[]> = {}): Promise<ResolvedVariables> {
  const values: Record<string, string> = {};
  const problems: string[] = [];
  for (const v of d.variables) {
    const where = `${d.title}: variable ${v.name} (${v.query})`;
    if (v.type !== 'query') {
      const options = v.type === 'custom' || v.type === 'interval' ? v.query.split(',').map((x) => x.trim()) : v.current;
      const chosen = fixed[v.name] ?? v.current;
      if (v.type !== 'textbox' && chosen.some((x) => !options.includes(x)))
        problems.push(`${where}: ${chosen.join(', ')} not among its options [${options.join(', ')}]`);
      values[v.name] = formatVariable(v, { all: false, values: chosen });
      continue;
    }
    const [label, selector] = parseLabelValues(v.query);
    const match = selector === undefined ? undefined : substitute(selector, values, undefined, where);
    const found = (await prom.labelValues(label, match, timing.fromS, timing.toS)).sort();
    const chosen = fixed[v.name];
    if (chosen) {
      const missing = chosen.filter((x) => !found.includes(x));
      if (missing.length) problems.push(`${where}: ${missing.join(', ')} not among its values [${found.join(', ')}]`);
      values[v.name] = formatVariable(v, { all: false, values: chosen });
    } else {
      if (!found.length) problems.push(`${where}: no values in Prometheus (match ${match ?? 'none'})`);
      values[v.name] = formatVariable(v, { all: v.includeAll, values: v.includeAll || v.multi ? found : found.slice(0, 1) });
    }
  }
  return { values, problems };
}

/** The target's query as Grafana sends it: variables and built-ins substituted, and the query_range step. */
export function prepareTarget(t: DashboardTarget, values: Record<string, string>, timing: Timing): { expr: string; stepS: number } {
  const iv = intervalsFor(t, values, timing);
  return { expr: substitute(t.expr, values, timing, describeTarget(t), iv), stepS: iv.intervalS };
}

/** Runs the prepared query over the range (query_range, aligned to the step) or at its end (instant); the series returned and the expression sent. */
export async function runTarget(prom: Prometheus, t: DashboardTarget, values: Record<string, string>, timing: Timing) {
  const { expr, stepS } = prepareTarget(t, values, timing);
  // Grafana aligns a range query to its step: the start down, the end up.
  const series = t.instant
    ? await prom.query(expr, timing.toS)
    : await prom.queryRange(expr, Math.floor(timing.fromS / stepS) * stepS, Math.ceil(timing.toS / stepS) * stepS, stepS);
  return { expr, series };
}
