/**
 * plan.html's charts, as ChartSpecs (report/html/chart-spec.ts) built from plan.json's content:
 *
 * - per SLO, its value against workersMax: a dot per seed, their mean as a bold line, the SLO's
 *   limit as a dashed line, and Erlang C's prediction for a mean or p95 queue-delay SLO;
 * - queue delay against workersMax beside Erlang C, when no SLO chart already shows it;
 * - cost against workersMax: dollars per hour and per 1 000 jobs with prices, else billed
 *   worker-seconds;
 * - with a grid: one mean line per combination of knobs instead of the seeds' dots, and per SLO
 *   the cost-vs-SLO Pareto front (every point, the front as a line, the recommendation).
 *
 * A y axis is logarithmic when the values span more than a factor of 30 (and are all above 0).
 * The SLO lines and Erlang C are reference series: a chart no run gave a value for (queue delay of
 * an openai-chat flow) is not drawn, and plan.html shows its `noData` line instead (charts.ts).
 * Pure: the same plan gives the same specs.
 */
import type { ChartSeries, ChartSpec, ChartXAxis } from '../report/html/chart-spec.js';
import { parseThreshold, type Threshold } from '../report/thresholds.js';
import { describeKnobs, pointKey, type Knobs } from './grid.js';
import { worstSeed } from './pareto-front.js';
import { rowPrice, type PlanResult, type PlanRow } from './plan-result.js';

const WORKERS_MAX: ChartXAxis = { kind: 'value', label: 'workersMax' };
const SEED_COLOURS = ['#7fa7e6', '#f4a261', '#84c98b', '#c39bd3', '#e9c46a', '#76c7cf'];
const LINE_COLOURS = ['#3366cc', '#ff9900', '#109618', '#990099', '#0099c6', '#dd4477', '#66aa00', '#316395', '#8c564b', '#17becf'];
const MEAN = '#1f4e99';
const LIMIT = '#d62728';
const ERLANG = '#8e44ad';

type Values = (number | null)[];

function mean(vs: readonly (number | null)[]): number | null {
  const xs = vs.filter((v): v is number => v !== null);
  return xs.length ? Math.round((xs.reduce((a, b) => a + b, 0) / xs.length) * 1e6) / 1e6 : null;
}

/** The y axis label of an SLO metric. */
function unitOf(metric: string): string {
  if (metric.endsWith('_ms')) return 'ms';
  if (metric.endsWith('_rate')) return 'share of requests';
  return metric.startsWith('jobs') ? 'jobs' : 'count';
}

/** Metrics Erlang C predicts (plan.json's erlangC of a row). */
const ERLANG_METRICS = ['queue_delay_mean_ms', 'queue_delay_p95_ms'];

/** Erlang C's prediction of a queue-delay metric at a row (null: unbounded, λ ≥ cμ, or no prediction: a closed flow). */
function erlangOf(metric: string, r: PlanRow): number | null {
  if (!r.erlangC?.stable) return null;
  return metric === 'queue_delay_mean_ms' ? r.erlangC.meanQueueDelayMs : r.erlangC.p95QueueDelayMs;
}

const erlangSeries = (values: Values): ChartSeries => ({ label: 'Erlang C (M/M/c)', values, color: ERLANG, dash: true, width: 2, reference: true });
const limitSeries = (t: Threshold, n: number): ChartSeries => ({
  label: `SLO ${t.cmp} ${t.value}`,
  values: new Array<number>(n).fill(t.value),
  color: LIMIT,
  dash: true,
  width: 1.5,
  reference: true,
});

/**
 * Why no run has a queue delay: it is the `delayTime` of the job statuses a flow reads, and an
 * OpenAI-compatible flow (openai-chat, e.g. on an `llm:` endpoint) is answered without one.
 */
const QUEUE_WHY = "queue delay is the delayTime of the job statuses a flow reads, and an openai-chat flow's answers carry none (its wait shows in TTFT)";

/** The note in place of an SLO's chart when no run of the plan measured its metric. */
const noValue = (t: Threshold): string => `No run of the plan measured ${t.metric}${t.metric.startsWith('queue_delay_') ? `: ${QUEUE_WHY}` : ''}.`;

/** Per seed a series of dots, then their mean as a bold line. */
function seedSeries(seeds: PlanResult['sweep']['seeds'], perSeed: (k: number) => Values): ChartSeries[] {
  const dots = seeds.map((s, k): ChartSeries => ({ label: `seed ${s}`, values: perSeed(k), color: SEED_COLOURS[k % SEED_COLOURS.length], points: true }));
  const means = dots[0]!.values.map((_, j) => mean(dots.map((d) => d.values[j] ?? null)));
  return [...dots, { label: 'mean over seeds', values: means, color: MEAN, width: 2.5 }];
}

interface Line {
  knobs: Knobs;
  label: string;
  rowAt: (workersMax: number) => PlanRow | undefined;
}

/** A measured figure against workersMax: per seed and their mean, or with a grid one mean line per combination. */
function figureSeries(p: PlanResult, xs: number[], lines: Line[] | null, perSeed: (r: PlanRow) => Values): ChartSeries[] {
  if (!lines) return seedSeries(p.sweep.seeds, (k) => p.rows.map((r) => perSeed(r)[k] ?? null));
  return lines.map((l, i) => ({
    label: l.label,
    values: xs.map((x) => {
      const r = l.rowAt(x);
      return r ? mean(perSeed(r)) : null;
    }),
    color: LINE_COLOURS[i % LINE_COLOURS.length],
    width: 2,
  }));
}

/** A logarithmic y axis when the chart's values are all above 0 and span more than a factor of 30. */
function scaled(spec: ChartSpec): ChartSpec {
  const vs = spec.series.flatMap((s) => s.values).filter((v): v is number => v !== null);
  const lo = Math.min(...vs);
  return vs.length && lo > 0 && Math.max(...vs) / lo > 30 ? { ...spec, yLog: true } : spec;
}

export function planCharts(p: PlanResult): ChartSpec[] {
  return chartsOf(p).map(scaled);
}

function chartsOf(p: PlanResult): ChartSpec[] {
  const slos = p.slo.exprs.map((e) => parseThreshold(e) as Threshold);
  const grid = p.sweep.grid;
  const xs = [...new Set(p.rows.map((r) => r.workersMax))].sort((a, b) => a - b);
  const lines: Line[] | null = grid
    ? grid.map((g) => {
        const key = describeKnobs(g.knobs);
        return {
          knobs: g.knobs,
          label: key || "scenario's knobs",
          rowAt: (w: number) => p.rows.find((r) => r.workersMax === w && describeKnobs(r.knobs ?? {}) === key),
        };
      })
    : null;
  const spread = lines
    ? "one line per grid combination (the mean over the seeds; plan.md's rows give each point's min–max)"
    : 'a dot per seed, the bold line their mean';
  const rec = p.recommendation.workersMax === null ? 'no recommendation' : `recommendation: workersMax ${p.recommendation.workersMax}`;
  const specs: ChartSpec[] = [];
  // The Erlang C line, per x: only where it depends on workersMax alone (not with a
  // workerConcurrency grid, where each line has its own) and has figures: none without an arrival
  // rate (a closed flow) nor for a batching endpoint.
  const ec = p.recommendation.erlangC;
  const closed = ec.arrivalsPerSec === null;
  const erlangShown = !closed && ec.notModelled === undefined && !grid?.some((g) => g.knobs.workerConcurrency !== undefined);
  const servers = ec.workerConcurrency === undefined ? 'c = workersMax' : 'c = workersMax × workerConcurrency job slots';
  // Why a queue-delay chart has no Erlang C line, when the reason is the scenario's traffic (both reasons with a batching endpoint).
  const noErlang = closed
    ? `; no Erlang C: a closed flow sets its own arrival rate${ec.notModelled === 'batching' ? ', and Erlang C does not model batching' : ''}`
    : '';
  const erlangAt = (metric: string) => xs.map((x) => erlangOf(metric, p.rows.find((r) => r.workersMax === x)!));

  slos.forEach((t, i) => {
    const series = [...figureSeries(p, xs, lines, (r) => r.slo[i]!.values), limitSeries(t, xs.length)];
    const withErlang = erlangShown && ERLANG_METRICS.includes(t.metric);
    if (withErlang) series.push(erlangSeries(erlangAt(t.metric)));
    specs.push({
      id: `slo-${i + 1}`,
      title: `${t.expr} against workersMax`,
      unit: unitOf(t.metric),
      x: xs,
      xAxis: WORKERS_MAX,
      series,
      subtitle: `${spread}; dashed red: the SLO${withErlang ? `; dashed purple: Erlang C for ${servers}` : ''}; ${rec}`,
      noData: noValue(t),
    });
  });
  if (!slos.some((t) => ERLANG_METRICS.includes(t.metric))) {
    const series = figureSeries(p, xs, lines, (r) => r.measured.queueDelayMeanMs);
    specs.push({
      id: 'queue-delay',
      title: `Mean queue delay against workersMax${erlangShown ? ', beside Erlang C' : ''}`,
      unit: 'ms',
      x: xs,
      xAxis: WORKERS_MAX,
      series: erlangShown ? [...series, erlangSeries(erlangAt('queue_delay_mean_ms'))] : series,
      subtitle: erlangShown ? `${spread}; dashed purple: Erlang C's mean queue delay for ${servers} (a gap: unbounded)` : `${spread}${noErlang}`,
      noData: `No run of the plan measured a queue delay: ${QUEUE_WHY}.`,
    });
  }
  if (p.prices) {
    specs.push(
      {
        id: 'cost-per-hour',
        title: 'Cost per hour against workersMax',
        unit: '$ per hour',
        x: xs,
        xAxis: WORKERS_MAX,
        series: figureSeries(p, xs, lines, (r) => r.cost!.perHour),
        subtitle: `${spread}; ${rec}`,
      },
      {
        id: 'cost-per-1000-jobs',
        title: 'Cost per 1 000 jobs against workersMax',
        unit: '$ per 1 000 jobs',
        x: xs,
        xAxis: WORKERS_MAX,
        series: figureSeries(p, xs, lines, (r) => r.cost!.per1000Jobs),
        subtitle: `${spread}; over the jobs that completed`,
      },
    );
  } else {
    specs.push({
      id: 'worker-seconds',
      title: 'Billed worker-seconds against workersMax',
      unit: 'worker-seconds',
      x: xs,
      xAxis: WORKERS_MAX,
      series: figureSeries(p, xs, lines, (r) => r.workers.flexSeconds.map((f, k) => f + r.workers.activeSeconds[k]!)),
      subtitle: `${spread}; flex and active; give --gpu or --price-flex/--price-active for dollars`,
    });
  }
  if (p.paretoFront) specs.push(...slos.flatMap((t, i) => paretoChart(p, t, i)));
  return specs;
}

/** Cost (x) against one SLO's worst seed (y) for every point; the front as a line through its points; the recommendation. */
function paretoChart(p: PlanResult, t: Threshold, i: number): ChartSpec[] {
  if (t.cmp[0] !== '<' && t.cmp[0] !== '>') return [];
  const key = (r: { workersMax: number; knobs?: Knobs }) => pointKey(r.workersMax, r.knobs);
  const front = new Set(p.paretoFront!.map(key));
  const recKey = p.recommendation.workersMax === null ? null : pointKey(p.recommendation.workersMax, p.recommendation.knobs);
  const rows = p.rows.map((r) => ({ r, x: rowPrice(r), y: worstSeed(t, r.slo[i]!.values) })).sort((a, b) => a.x - b.x);
  const byDollars = p.recommendation.cheapestBy === 'cost per hour';
  return [
    {
      id: `pareto-${i + 1}`,
      title: `Cost against ${t.expr}: the Pareto front`,
      unit: unitOf(t.metric),
      x: rows.map((o) => Math.round(o.x * 1e6) / 1e6),
      xAxis: byDollars
        ? { kind: 'value', label: 'cost per hour', unit: '$, mean over seeds' }
        : { kind: 'value', label: 'billed worker-seconds', unit: 'mean over seeds' },
      series: [
        { label: 'every point', values: rows.map((o) => o.y), color: '#9aa5b1', points: true },
        { label: 'Pareto front', values: rows.map((o) => (front.has(key(o.r)) ? o.y : null)), color: '#109618', width: 2.5, spanGaps: true },
        { label: 'recommendation', values: rows.map((o) => (key(o.r) === recKey ? o.y : null)), color: '#e67e22', points: true },
        limitSeries(t, rows.length),
      ],
      subtitle: `a dot per point (workersMax × grid combination), y: its worst seed; the green line joins the points no other point beats on cost and on every SLO; orange: the recommendation, the cheapest meeting every SLO`,
      noData: noValue(t),
    },
  ];
}
