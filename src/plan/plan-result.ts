/**
 * plan.json: the sweep's rows and the recommendation, built from the sweep's points. Plain data
 * with no wall-clock figure, so the same inputs give the same bytes whatever `--jobs`.
 */
import type { Threshold } from '../report/thresholds.js';
import { costOf, type Prices } from './cost.js';
import { erlangSmallestC, predict, type MmcInputs, type MmcPrediction } from './mmc-reference.js';
import type { SloSource } from './slo.js';
import { pointMeets, type SweepOutcome } from './sweep.js';

export const PLAN_VERSION = 1;

/** An SLO at one point: its value and whether it held, per seed. */
export interface RowSlo {
  expr: string;
  values: (number | null)[];
  met: boolean[];
}

export interface PlanRow {
  workersMax: number;
  workersMin: number;
  /** Every SLO held on every seed. */
  meetsAll: boolean;
  slo: RowSlo[];
  /** Measured figures, per seed. */
  measured: {
    jobsAccepted: number[];
    jobsCompleted: number[];
    turnaroundP95Ms: (number | null)[];
    queueDelayMeanMs: (number | null)[];
    queueDelayP95Ms: (number | null)[];
    limitedRate: (number | null)[];
    elapsedMs: number[];
  };
  /** Workers per seed: started, billed seconds (active, flex), seconds by state. */
  workers: {
    started: number[];
    activeSeconds: number[];
    flexSeconds: number[];
    secondsByState: Record<string, number[]>;
  };
  /** Dollars per seed (with prices only). */
  cost?: { perRun: number[]; perHour: number[]; per1000Jobs: (number | null)[] };
  /** The M/M/c prediction for c = workersMax (mmc-reference.ts). */
  erlangC: MmcPrediction;
}

export interface PlanResult {
  version: number;
  scenario: { name: string; file?: string; durationMs: number };
  slo: { source: SloSource; exprs: string[] };
  sweep: {
    workersMax: { from: number; to: number };
    workersMin: number | 'max';
    seeds: (number | string)[];
    exhaustive: boolean;
    /** The workersMax after which the sweep stopped (it and the two below it met every SLO); null: ran the whole range. */
    stoppedAfter: number | null;
  };
  prices?: Prices & { gpu?: string };
  recommendation: {
    /** The smallest workersMax meeting every SLO on every seed; null: none in the range. */
    workersMax: number | null;
    reason: string;
    /** Erlang C's smallest c for the queue-delay SLOs (null: no such SLO), from the scenario's means. */
    erlangC: { workersMax: number | null; arrivalsPerSec: number; meanJobMs: number };
    /** Mean over seeds at the recommended point (with prices only). */
    cost?: { perHour: number; per1000Jobs: number | null };
  };
  /** Rows whose seeds disagree on an SLO: its limit lies within the seeds' spread (sampling error). */
  borderline: { workersMax: number; expr: string; min: number | null; max: number | null }[];
  /** Points above the recommendation that fail: the SLOs are not monotone in workersMax over these seeds. */
  failingAbove: number[];
  rows: PlanRow[];
}

export interface PlanInputs {
  scenario: { name: string; file?: string; durationMs: number };
  slos: { source: SloSource; list: Threshold[] };
  range: readonly number[];
  workersMin: number | 'max';
  seeds: readonly (number | string)[];
  exhaustive: boolean;
  mmc: MmcInputs;
  prices?: Prices & { gpu?: string };
}

const r6 = (v: number) => Math.round(v * 1e6) / 1e6;
const r6n = (v: number | null) => (v === null ? null : r6(v));
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

export function buildPlan(inp: PlanInputs, out: SweepOutcome): PlanResult {
  const rows: PlanRow[] = out.points.map((runs) => {
    const states = [...new Set(runs.flatMap((r) => Object.keys(r.bill.secondsByState)))].sort();
    const row: PlanRow = {
      workersMax: runs[0]!.workersMax,
      workersMin: runs[0]!.workersMin,
      meetsAll: pointMeets(runs),
      slo: inp.slos.list.map((t, i) => ({ expr: t.expr, values: runs.map((r) => r.slo[i]!.value), met: runs.map((r) => r.slo[i]!.ok) })),
      measured: {
        jobsAccepted: runs.map((r) => r.figures.jobsAccepted),
        jobsCompleted: runs.map((r) => r.figures.jobsCompleted),
        turnaroundP95Ms: runs.map((r) => r6n(r.figures.turnaroundP95Ms)),
        queueDelayMeanMs: runs.map((r) => r6n(r.figures.queueDelayMeanMs)),
        queueDelayP95Ms: runs.map((r) => r6n(r.figures.queueDelayP95Ms)),
        limitedRate: runs.map((r) => r6n(r.figures.limitedRate)),
        elapsedMs: runs.map((r) => r.figures.elapsedMs),
      },
      workers: {
        started: runs.map((r) => r.bill.workersStarted),
        activeSeconds: runs.map((r) => r.bill.activeSeconds),
        flexSeconds: runs.map((r) => r.bill.flexSeconds),
        secondsByState: Object.fromEntries(states.map((s) => [s, runs.map((r) => r6(r.bill.secondsByState[s] ?? 0))])),
      },
      erlangC: roundPrediction(predict(inp.mmc, runs[0]!.workersMax)),
    };
    if (inp.prices) {
      const costs = runs.map((r) => costOf(r.bill, inp.prices!, r.figures.elapsedMs, r.figures.jobsCompleted));
      row.cost = { perRun: costs.map((c) => r6(c.total)), perHour: costs.map((c) => r6(c.perHour)), per1000Jobs: costs.map((c) => r6n(c.per1000Jobs)) };
    }
    return row;
  });

  const best = rows.find((r) => r.meetsAll);
  const from = inp.range[0]!;
  const to = inp.range[inp.range.length - 1]!;
  const recommendation: PlanResult['recommendation'] = {
    workersMax: best?.workersMax ?? null,
    reason: best
      ? `workersMax ${best.workersMax} is the smallest in ${from}..${to} meeting every SLO on all ${inp.seeds.length} seeds`
      : `no workersMax in ${from}..${to} meets every SLO on all ${inp.seeds.length} seeds`,
    erlangC: { workersMax: erlangSmallestC(inp.mmc, inp.slos.list), arrivalsPerSec: r6(inp.mmc.arrivalsPerSec), meanJobMs: r6(inp.mmc.meanJobMs) },
  };
  if (best?.cost) {
    const per1000 = best.cost.per1000Jobs.filter((v): v is number => v !== null);
    recommendation.cost = { perHour: r6(mean(best.cost.perHour)), per1000Jobs: per1000.length ? r6(mean(per1000)) : null };
  }
  const borderline = rows.flatMap((r) => r.slo.filter((s) => s.met.some((m) => m) && s.met.some((m) => !m)).map((s) => {
    const vs = s.values.filter((v): v is number => v !== null);
    return { workersMax: r.workersMax, expr: s.expr, min: vs.length ? Math.min(...vs) : null, max: vs.length ? Math.max(...vs) : null };
  }));
  return {
    version: PLAN_VERSION,
    scenario: inp.scenario,
    slo: { source: inp.slos.source, exprs: inp.slos.list.map((t) => t.expr) },
    sweep: { workersMax: { from, to }, workersMin: inp.workersMin, seeds: [...inp.seeds], exhaustive: inp.exhaustive, stoppedAfter: out.stoppedAfter },
    ...(inp.prices ? { prices: inp.prices } : {}),
    recommendation,
    borderline,
    failingAbove: best ? rows.filter((r) => r.workersMax > best.workersMax && !r.meetsAll).map((r) => r.workersMax) : [],
    rows,
  };
}

function roundPrediction(p: MmcPrediction): MmcPrediction {
  return p.stable
    ? { stable: true, utilisation: r6(p.utilisation), probabilityOfWaiting: r6(p.probabilityOfWaiting), meanQueueDelayMs: r6(p.meanQueueDelayMs), p95QueueDelayMs: r6(p.p95QueueDelayMs) }
    : { stable: false, utilisation: r6(p.utilisation) };
}

export function renderPlanJson(p: PlanResult): string {
  return `${JSON.stringify(p, null, 2)}\n`;
}
