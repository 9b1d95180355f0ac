/**
 * The checked-in dashboards, as Grafana and Prometheus will read them: every metric a query names
 * exists in src/contract/metric-names.ts; every panel has a title, a description, a unit and the
 * provisioned data source; every variable a query uses is defined (and matched with =~, since all
 * are multi-value). The checks run first on a known-bad query, so a check that matches nothing fails.
 */
import { describe, expect, it } from 'vitest';
import { CLIENT_METRIC, METRIC, PROCESS_METRIC } from '../../src/contract/metric-names.js';
import { loadDashboards, panelsOf, provisionedDatasourceUid, queriesOf, type Query } from './dashboard-files.js';

const FAMILIES = new Set<string>([...Object.values(METRIC), ...Object.values(CLIENT_METRIC), ...Object.values(PROCESS_METRIC)]);
/** Sample suffixes Prometheus adds to a family: counters `_total`, histograms, info. */
const SUFFIXES = ['_total', '_bucket', '_count', '_sum', '_info'];
const METRIC_NAME = /\b(?:loadlab|process|nodejs)_[a-z0-9_]*[a-z0-9]\b/g;
/** Grafana's own variables, defined for every dashboard. */
const BUILT_IN = new Set(['__rate_interval', '__interval', '__range', '__interval_ms', '__range_s', '__all']);

function knownMetric(name: string): boolean {
  if (FAMILIES.has(name)) return true;
  return SUFFIXES.some((s) => name.endsWith(s) && FAMILIES.has(name.slice(0, -s.length)));
}

/** Metric names a query uses that metric-names.ts does not define. */
function unknownMetrics(q: Query): string[] {
  return [...new Set(q.expr.match(METRIC_NAME) ?? [])].filter((n) => !knownMetric(n)).map((n) => `${q.where}: ${n}`);
}

/** `$name` and `${name}` references. */
const variablesIn = (expr: string) => [...expr.matchAll(/\$\{?(\w+)\}?/g)].map((m) => m[1]!);

/** Variables used but not defined, and variables compared with `=` or `!=` (a multi-value needs `=~`). */
function variableProblems(q: Query, defined: ReadonlySet<string>): string[] {
  const undefinedVars = variablesIn(q.expr)
    .filter((v) => !BUILT_IN.has(v) && !defined.has(v))
    .map((v) => `${q.where}: $${v} is not defined`);
  const exact = [...q.expr.matchAll(/(\w+)\s*!?=\s*"\$\{?(\w+)/g)].map((m) => `${q.where}: ${m[1]} matched exactly to $${m[2]}`);
  return [...undefinedVars, ...exact];
}

describe('dashboard lint (self-test)', () => {
  it('flags an unknown metric, an undefined variable and an exact match on a multi-value variable', () => {
    const bad: Query = {
      where: 'bad',
      expr: `sum(rate(loadlab_nope_total{scenario="$scenario",flow=~"$flow"}[$__rate_interval])) / ${METRIC.queueJobs}_bucket`,
    };
    expect(unknownMetrics(bad)).toEqual(['bad: loadlab_nope_total']);
    expect(variableProblems(bad, new Set(['scenario']))).toEqual(['bad: $flow is not defined', 'bad: scenario matched exactly to $scenario']);
    const good: Query = { where: 'good', expr: `rate(${CLIENT_METRIC.requests}_total{scenario=~"$scenario"}[$__rate_interval]) + ${PROCESS_METRIC.heapUsed}` };
    expect(unknownMetrics(good)).toEqual([]);
    expect(variableProblems(good, new Set(['scenario']))).toEqual([]);
  });
});

describe.each(loadDashboards().map((d) => [d.uid, d] as const))('dashboard %s', (_uid, d) => {
  const queries = queriesOf(d);
  const defined = new Set(d.templating.list.map((v) => v.name));

  it('names only metrics of metric-names.ts', () => {
    expect(queries.flatMap(unknownMetrics)).toEqual([]);
    expect(queries.filter((q) => q.where.includes('panel') && !q.where.endsWith('interval')).length).toBeGreaterThan(10);
  });

  it('defines every variable its queries use, and matches multi-value variables with =~', () => {
    expect(queries.flatMap((q) => variableProblems(q, defined))).toEqual([]);
    for (const v of d.templating.list.filter((x) => x.type === 'query')) expect([v.name, v.multi, v.includeAll]).toEqual([v.name, true, true]);
  });

  it('gives every panel a title, a description, a unit and the provisioned data source', () => {
    const uid = provisionedDatasourceUid();
    const problems = panelsOf(d).flatMap((p) => {
      const name = `panel ${p.id} "${p.title ?? ''}"`;
      return [
        !p.title && `${name}: no title`,
        !p.description && `${name}: no description`,
        !p.fieldConfig?.defaults?.unit && `${name}: no unit`,
        p.datasource?.uid !== uid && `${name}: data source ${p.datasource?.uid}`,
        !p.targets?.length && `${name}: no query`,
        ...(p.targets ?? []).filter((t) => t.datasource?.uid !== uid).map((t) => `${name} ${t.refId}: data source ${t.datasource?.uid}`),
      ].filter((x): x is string => typeof x === 'string');
    });
    const others = [...d.templating.list.filter((v) => v.type === 'query'), ...d.annotations.list.filter((a) => a.expr)]
      .filter((x) => x.datasource?.uid !== uid)
      .map((x) => `${x.name}: data source ${x.datasource?.uid}`);
    expect([...problems, ...others]).toEqual([]);
  });

  it('has unique panel ids and titles', () => {
    const panels = panelsOf(d);
    const ids = d.panels.flatMap((p) => [p.id, ...(p.panels ?? []).map((q) => q.id)]);
    expect(new Set(ids).size).toBe(ids.length);
    expect(new Set(panels.map((p) => p.title)).size).toBe(panels.length);
  });
});

describe('loadlab — run', () => {
  const run = loadDashboards().find((d) => d.uid === 'loadlab-run')!;

  it('filters every panel query by scenario and endpoint, so runs never mix', () => {
    const loose = queriesOf(run)
      .filter((q) => q.where.includes('panel') && !q.where.endsWith('interval'))
      .flatMap((q) =>
        (q.expr.match(METRIC_NAME) ?? []).length === (q.expr.match(/scenario=~"\$scenario",endpoint=~"\$endpoint"/g) ?? []).length ? [] : [q.where],
      );
    expect(loose).toEqual([]);
  });

  it('takes the rate window of every query from the sample-spacing variable', () => {
    const targets = panelsOf(run).flatMap((p) => p.targets ?? []);
    expect(targets.filter((t) => t.interval !== '$resolution')).toEqual([]);
    const v = run.templating.list.find((x) => x.name === 'resolution');
    expect(v?.type).toBe('custom');
    expect(v?.query.split(',')).toEqual(expect.arrayContaining(['5s', '10s', '1m']));
  });

  it("marks run start and end with the gauges' values (ms) as the annotation time", () => {
    const ann = run.annotations.list.filter((a) => a.expr);
    expect(ann.map((a) => [a.name, a.useValueForTime])).toEqual([
      ['Run start', true],
      ['Run end', true],
    ]);
    expect(ann[0]!.expr).toContain(CLIENT_METRIC.runStartTime);
    expect(ann[1]!.expr).toContain(CLIENT_METRIC.runEndTime);
    for (const a of ann) expect(a.expr).toMatch(/\* 1000$/);
  });
});
