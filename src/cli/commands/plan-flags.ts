/**
 * The flags of `loadlab plan` that need no scenario to check (cli/commands/plan.ts): whole-number
 * flags, --workers-min, and the seeds of a sweep (the price flags: price-flags.ts, shared with
 * `loadlab run`). A bad one is a CliError (exit 2) naming the flag.
 */
import type { Argv } from 'yargs';
import { KNOBS } from '../../plan/grid.js';
import { DEFAULT_WORKERS_RANGE } from '../../plan/workers-range.js';
import { CliError, EXIT } from '../exit-codes.js';
import type { ShardArgs } from '../shard-option.js';
import type { PriceArgs } from './price-flags.js';

export interface PlanArgs extends PriceArgs, ShardArgs {
  scenario: string;
  'workers-max'?: string;
  'workers-min'?: string;
  seeds?: number;
  seed?: number | string;
  slo?: string[];
  jobs?: number;
  exhaustive?: boolean;
  out?: string;
  grid?: string[];
}

export const bad = (m: string) => new CliError(m, EXIT.USAGE);

/** The options that say what a sweep runs: `loadlab plan`'s, and `loadlab k8s plan` passes them on. */
export function sweepOptions<T>(y: Argv<T>) {
  return y
    .option('workers-max', {
      type: 'string',
      describe: `workersMax values to sweep, FROM..TO (default: the scenario's plan.workersMax, else ${DEFAULT_WORKERS_RANGE})`,
    })
    .option('workers-min', {
      type: 'string',
      describe: 'workersMin at every point: a number (capped at the point\'s workersMax) or "max" (every worker always on, warm). Default: the scenario\'s',
    })
    .option('seeds', {
      type: 'number',
      describe: "Seeds per point; a point meets the SLOs only if every seed does (default: the scenario's plan.seeds, else 3)",
    })
    .option('seed', { type: 'string', describe: "First seed; the others follow it (default: the scenario's)" })
    .option('slo', {
      type: 'string',
      array: true,
      describe:
        'An SLO in the threshold grammar, e.g. "turnaround_p95_ms < 30000"; for a streaming LLM flow "ttft_p95_ms{flow=chat} < 500", "tpot_p95_ms{flow=chat} < 50", "itl_p99_ms < 100", "goodput{flow=chat} > 0.95"; repeat for more. Replaces the scenario\'s slo: list',
    })
    .option('exhaustive', {
      type: 'boolean',
      describe: 'Run every point; by default the sweep stops once a point and the next two meet every SLO on every seed',
    })
    .option('grid', {
      type: 'string',
      array: true,
      describe: `Also sweep an endpoint knob: KNOB=V1,V2,… (repeat for more; every combination runs; replaces the scenario's plan.grid). Knobs: ${KNOBS.join(', ')}; flashBoot takes off or a restart time in ms; workerConcurrency (jobs one worker runs at once, 1..1024) with --workers-max is the workers × concurrency sweep, e.g. --grid workerConcurrency=1,4,8,16,30, shown as a workersMax × workerConcurrency grid in plan.md and plan.html; gpus takes lists of GPU types in priority order, a list's types joined by +, e.g. --grid gpus=H100-PRO,A100,H100-PRO+A100 (each type priced from the book); type takes queue and load-balancer, the same traffic on both kinds of endpoint side by side (cost, TTFT, failures), e.g. --grid type=queue,load-balancer. The recommendation is then the cheapest point meeting every SLO, and plan.json has the cost-vs-SLO Pareto front`,
    });
}

export function wholeAtLeast(flag: string, v: number | undefined, min: number, dflt: number): number {
  if (v === undefined) return dflt;
  if (!Number.isInteger(v) || v < min) throw bad(`--${flag}: must be a whole number >= ${min}, got ${v}`);
  return v;
}

export function workersMinOf(text: string | undefined, dflt: number): number | 'max' {
  if (text === undefined) return dflt;
  if (text === 'max') return 'max';
  if (!/^\d+$/.test(text)) throw bad(`--workers-min: "${text}" is neither a whole number nor "max"`);
  return Number(text);
}

/** Seeds of the sweep: the base seed, then base+1, … (a string seed: seed, seed-2, …). */
export function seedsOf(base: number | string, n: number): (number | string)[] {
  return Array.from({ length: n }, (_, i) => (typeof base === 'number' ? base + i : i === 0 ? base : `${base}-${i + 1}`));
}
