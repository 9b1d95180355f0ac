/**
 * Every input of a plan — scenario, SLOs, the grid and its seeds, prices — as plain data. A whole
 * plan builds its plan.json from it (plan-result.ts); a shard stores it in its partial plan.json
 * (partial-plan.ts), and the merge checks that every shard's is the same (merge-plans.ts).
 */
import type { Scenario } from '../load/scenario/schema.js';
import type { PricesUsed } from '../report/prices.js';
import type { Threshold } from '../report/thresholds.js';
import { billingRule } from '../report/worker-bill.js';
import type { Knobs } from './grid.js';
import type { MmcInputs } from './mmc-reference.js';
import type { PlanInputs } from './plan-result.js';
import type { SloSource } from './slo.js';
import type { PlanTrace } from './plan-traces.js';
import { fitRangeOf } from './extrapolation.js';

/** Every input of a plan: the same in every shard of one plan (merge-plans.ts compares them). */
export interface PlanSpec {
  /** `traces`: the token traces its flows replay (plan-traces.ts), when any. */
  scenario: { name: string; file?: string; durationMs: number; traces?: PlanTrace[] };
  /** `added`: the SLOs the plan added to the list (slo.ts withBalancerSlo). */
  slo: { source: SloSource; exprs: string[]; added?: string[] };
  /** The workersMax values swept, in order. */
  workers: number[];
  /** A `--grid` (or the scenario's plan.grid) was given. */
  grid: boolean;
  /** The grid's knob combinations, in canonical order (one empty combination without a grid). */
  lines: Knobs[];
  workersMin: number | 'max';
  seeds: (number | string)[];
  exhaustive: boolean;
  mmc: MmcInputs;
  prices?: PricesUsed;
  /** The scenario as loaded (defaults filled in), for plan.md's notes on where it departs from M/M/c. */
  scenarioConfig: Scenario;
}

/** What buildPlan takes, from the spec and its SLOs parsed. */
export function planInputsOf(spec: PlanSpec, slos: Threshold[]): PlanInputs {
  return {
    scenario: spec.scenario,
    slos: { source: spec.slo.source, list: slos, ...(spec.slo.added ? { added: spec.slo.added } : {}) },
    range: spec.workers,
    grid: spec.grid,
    workersMin: spec.workersMin,
    seeds: spec.seeds,
    exhaustive: spec.exhaustive,
    mmc: spec.mmc,
    ...(spec.prices ? { prices: spec.prices } : {}),
    billInitializing: billingRule(spec.scenarioConfig.endpoint).initializing,
    fitRange: fitRangeOf(spec.scenarioConfig, spec.scenario.traces),
  };
}
