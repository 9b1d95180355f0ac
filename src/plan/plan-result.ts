/**
 * plan.json: the sweep's rows and the recommendation, built from the sweep's points. Plain data
 * with no wall-clock figure, so the same inputs give the same bytes whatever `--jobs`.
 */
import { extrapolationFlags, type FitRange } from './extrapolation.js';
import { costOf, type PricesUsed } from '../report/prices.js';
import type { BillingSection } from '../report/run-result.js';
import { billingSection } from '../report/workers-section.js';
import type { MmcInputs, MmcPrediction } from './mmc-reference.js';
import type { Slos, SloSource } from './slo.js';
import type { BalancerCause } from '../contract/sim-events.js';
import type { PlanTrace } from './plan-traces.js';
import { describeKnobs, type Knobs } from './grid.js';
import { paretoFront } from './pareto-front.js';
import { rowGpus, type RowGpu } from './plan-row-gpus.js';
import { recommendationErlangC, rowErlangC, type RecommendationErlangC } from './plan-erlang.js';
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
  /** The `--grid` combination of endpoint knobs (with a grid only). */
  knobs?: Knobs;
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
    /** Jobs (a load-balancing endpoint: requests) that ended FAILED or TIMED_OUT, the balancer's failures included. */
    jobsFailed: number[];
    /** A load-balancing point only: the requests its balancer ended, by cause (no-workers, timeout, dropped, …), per seed. */
    balancerFailed?: Record<string, number[]>;
    /** A plan of a streaming flow only: TTFT p95 over the streaming flows (ms), per seed. */
    ttftP95Ms?: (number | null)[];
    /**
     * An `llm.engine` endpoint only: the share of request time spent waiting inside the engine
     * (report.json `engine.waitingShareOfRequestTime`), per seed.
     */
    engineWaitingShare?: (number | null)[];
  };
  /** Workers per seed: started, billed seconds (active, flex), seconds by state. */
  workers: {
    started: number[];
    activeSeconds: number[];
    flexSeconds: number[];
    secondsByState: Record<string, number[]>;
    /** A point listing its GPU types (endpoint.gpus or a grid over gpus): the same per type, with its cost per run (plan-row-gpus.ts). */
    byGpu?: RowGpu[];
  };
  /** Dollars per seed (with prices only). */
  cost?: { perRun: number[]; perHour: number[]; per1000Jobs: (number | null)[] };
  /**
   * The M/M/c prediction for c = workersMax, or for workersMax × workerConcurrency job slots
   * (`servers`) when a worker holds more than one job; `stable: null` for a batching endpoint;
   * null: a closed flow submits jobs, so there is no arrival rate to predict from (checked first,
   * also on a batching endpoint). mmc-reference.ts.
   */
  erlangC: MmcPrediction | null;
}

export interface PlanResult {
  version: number;
  /** `traces`: the token traces its flows replay, each run the same requests (plan-traces.ts; absent without one). */
  scenario: { name: string; file?: string; durationMs: number; traces?: PlanTrace[] };
  /** `added`: SLOs the plan added (a load-balancing point's `balancer_failed == 0`, slo.ts); absent: none. */
  slo: { source: SloSource; exprs: string[]; added?: string[] };
  sweep: {
    workersMax: { from: number; to: number };
    workersMin: number | 'max';
    seeds: (number | string)[];
    exhaustive: boolean;
    /** The workersMax after which the sweep stopped (it and the two below it met every SLO); null: ran the whole range. With a grid: the first line's. */
    stoppedAfter: number | null;
    /** With a grid: each combination of knobs and where its line stopped. */
    grid?: { knobs: Knobs; stoppedAfter: number | null }[];
  };
  /** Where a GPU's prices come from (prices.ts): its price book and the book's date. */
  prices?: PricesUsed;
  /** The billing rule of every row's bill, and the price book (worker-bill.ts; added without a version change: absent from older plans). */
  billing?: BillingSection;
  recommendation: {
    /**
     * The smallest workersMax meeting every SLO on every seed; null: none in the range. With a
     * grid: the workersMax of the cheapest point meeting every SLO (see `knobs`, `cheapestBy`).
     */
    workersMax: number | null;
    /** With a grid: the knobs of the recommended point (null: none meets the SLOs). */
    knobs?: Knobs | null;
    /** With a grid: what "cheapest" compares (mean over seeds). */
    cheapestBy?: 'cost per hour' | 'billed worker-seconds';
    reason: string;
    /**
     * Erlang C's smallest c for the queue-delay SLOs (null: no such SLO, no arrival rate, or
     * batching), from the scenario's means; arrivalsPerSec null: a closed flow submits jobs (its
     * rate is an output). plan-erlang.ts.
     */
    erlangC: RecommendationErlangC;
    /** Mean over seeds at the recommended point (with prices only). */
    cost?: { perHour: number; per1000Jobs: number | null };
    /** Where the recommended point leaves what the engine was measured on or what its KV cache holds (extrapolation.ts); absent: nothing to flag. */
    flags?: string[];
  };
  /**
   * With a grid: the rows no other row beats on cost and on every SLO at once (worst seed; lower
   * is better for `<` SLOs, higher for `>`), cheapest first: the cost-vs-SLO Pareto front.
   */
  paretoFront?: { workersMax: number; knobs: Knobs }[];
  /** Rows whose seeds disagree on an SLO: its limit lies within the seeds' spread (sampling error). */
  borderline: { workersMax: number; expr: string; min: number | null; max: number | null }[];
  /** Points above the recommendation that fail: the SLOs are not monotone in workersMax over these seeds. */
  failingAbove: number[];
  rows: PlanRow[];
}

export interface PlanInputs {
  scenario: { name: string; file?: string; durationMs: number; traces?: PlanTrace[] };
  slos: Slos;
  range: readonly number[];
  /** A `--grid` was given (rows carry their knobs; the recommendation is the cheapest point). */
  grid: boolean;
  workersMin: number | 'max';
  seeds: readonly (number | string)[];
  exhaustive: boolean;
  mmc: MmcInputs;
  prices?: PricesUsed;
  /** Time initializing is billed (the endpoint's billing.initializing); default false. */
  billInitializing?: boolean;
  /** An LLM engine's measured range and cache (undefined: no engine). */
  fitRange?: FitRange | undefined;
}

const r6 = (v: number) => Math.round(v * 1e6) / 1e6;
const r6n = (v: number | null) => (v === null ? null : r6(v));
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

/** What "cheapest" compares: the mean cost per hour over the seeds with prices, else the mean billed worker-seconds. */
export const rowPrice = (r: PlanRow): number => (r.cost ? mean(r.cost.perHour) : mean(r.workers.activeSeconds.map((a, i) => a + r.workers.flexSeconds[i]!)));

export function buildPlan(inp: PlanInputs, out: SweepOutcome): PlanResult {
  const rows: PlanRow[] = out.lines
    .flatMap((l) => l.points)
    .map((runs) => {
      const states = [...new Set(runs.flatMap((r) => Object.keys(r.bill.secondsByState)))].sort();
      const row: PlanRow = {
        workersMax: runs[0]!.workersMax,
        ...(inp.grid ? { knobs: runs[0]!.knobs } : {}),
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
          jobsFailed: runs.map((r) => r.figures.jobsFailed),
          ...(runs[0]!.figures.balancerFailed
            ? {
                balancerFailed: Object.fromEntries(
                  Object.keys(runs[0]!.figures.balancerFailed).map((c) => [c, runs.map((r) => r.figures.balancerFailed?.[c as BalancerCause] ?? 0)]),
                ),
              }
            : {}),
          ...(runs.some((r) => r.figures.ttftP95Ms !== undefined) ? { ttftP95Ms: runs.map((r) => r6n(r.figures.ttftP95Ms ?? null)) } : {}),
          ...(runs.some((r) => r.figures.engineWaitingShare !== undefined)
            ? { engineWaitingShare: runs.map((r) => r.figures.engineWaitingShare ?? null) }
            : {}),
        },
        workers: {
          started: runs.map((r) => r.bill.workersStarted),
          activeSeconds: runs.map((r) => r.bill.activeSeconds),
          flexSeconds: runs.map((r) => r.bill.flexSeconds),
          secondsByState: Object.fromEntries(states.map((s) => [s, runs.map((r) => r6(r.bill.secondsByState[s] ?? 0))])),
        },
        erlangC: rowErlangC(inp.mmc, runs[0]!.workersMax, runs[0]!.knobs),
      };
      const byGpu = rowGpus(runs, inp.prices);
      if (byGpu) row.workers.byGpu = byGpu;
      if (inp.prices) {
        const costs = runs.map((r) => costOf(r.bill, inp.prices!, r.figures.elapsedMs, r.figures.jobsCompleted));
        row.cost = { perRun: costs.map((c) => r6(c.total)), perHour: costs.map((c) => r6(c.perHour)), per1000Jobs: costs.map((c) => r6n(c.per1000Jobs)) };
      }
      return row;
    });

  const from = inp.range[0]!;
  const to = inp.range[inp.range.length - 1]!;
  const cheapestBy = inp.prices ? ('cost per hour' as const) : ('billed worker-seconds' as const);
  // Without a grid: the smallest workersMax (rows are in its order); with one: the cheapest point, ties to the earlier row.
  const best = inp.grid ? (cheapestMeeting(rows) ?? undefined) : rows.find((r) => r.meetsAll);
  const where = inp.grid ? ` over ${out.lines.length} grid combinations` : '';
  const recommendation: PlanResult['recommendation'] = {
    workersMax: best?.workersMax ?? null,
    ...(inp.grid ? { knobs: best?.knobs ?? null, cheapestBy } : {}),
    reason: !best
      ? `no workersMax in ${from}..${to}${where} meets every SLO ${onSeeds(inp.seeds.length)}`
      : inp.grid
        ? `workersMax ${best.workersMax} with ${describeKnobs(best.knobs!) || "the scenario's knobs"} is the cheapest point (by ${cheapestBy}) in ${from}..${to}${where} meeting every SLO ${onSeeds(inp.seeds.length)}`
        : `workersMax ${best.workersMax} is the smallest in ${from}..${to} meeting every SLO ${onSeeds(inp.seeds.length)}`,
    erlangC: recommendationErlangC(
      inp.mmc,
      inp.slos.list,
      best?.knobs ?? out.lines[0]!.knobs,
      (inp.mmc.workerConcurrency ?? 1) > 1 || out.lines.some((l) => l.knobs.workerConcurrency !== undefined),
    ),
  };
  const flags = best ? extrapolationFlags(inp.fitRange, best.knobs) : [];
  if (flags.length > 0) recommendation.flags = flags;
  if (best?.cost) {
    const per1000 = best.cost.per1000Jobs.filter((v): v is number => v !== null);
    recommendation.cost = { perHour: r6(mean(best.cost.perHour)), per1000Jobs: per1000.length ? r6(mean(per1000)) : null };
  }
  const borderline = rows.flatMap((r) =>
    r.slo
      .filter((s) => s.met.some((m) => m) && s.met.some((m) => !m))
      .map((s) => {
        const vs = s.values.filter((v): v is number => v !== null);
        return { workersMax: r.workersMax, expr: s.expr, min: vs.length ? Math.min(...vs) : null, max: vs.length ? Math.max(...vs) : null };
      }),
  );
  return {
    version: PLAN_VERSION,
    scenario: inp.scenario,
    slo: { source: inp.slos.source, exprs: inp.slos.list.map((t) => t.expr), ...(inp.slos.added ? { added: inp.slos.added } : {}) },
    sweep: {
      workersMax: { from, to },
      workersMin: inp.workersMin,
      seeds: [...inp.seeds],
      exhaustive: inp.exhaustive,
      stoppedAfter: out.lines[0]!.stoppedAfter,
      ...(inp.grid ? { grid: out.lines.map((l) => ({ knobs: l.knobs, stoppedAfter: l.stoppedAfter })) } : {}),
    },
    ...(inp.prices ? { prices: inp.prices } : {}),
    billing: billingSection(inp.billInitializing ?? false, inp.prices),
    recommendation,
    ...(inp.grid ? { paretoFront: paretoFront(rows, inp.slos.list, rowPrice) } : {}),
    borderline,
    failingAbove: best ? rows.filter((r) => r.workersMax > best.workersMax && !r.meetsAll && sameKnobs(r.knobs, best.knobs)).map((r) => r.workersMax) : [],
    rows,
  };
}

const sameKnobs = (a: Knobs | undefined, b: Knobs | undefined) => describeKnobs(a ?? {}) === describeKnobs(b ?? {});

export function renderPlanJson(p: PlanResult): string {
  return `${JSON.stringify(p, null, 2)}\n`;
}

/** "on all 3 seeds", "on its 1 seed". */
function onSeeds(n: number): string {
  return n === 1 ? 'on its 1 seed' : `on all ${n} seeds`;
}

/** The cheapest row meeting every SLO (rowPrice), ties to the earlier row; null when none does. */
export function cheapestMeeting(rows: readonly PlanRow[]): PlanRow | null {
  return rows.filter((r) => r.meetsAll).reduce<PlanRow | null>((b, r) => (b === null || rowPrice(r) < rowPrice(b) ? r : b), null);
}
