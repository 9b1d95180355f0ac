/**
 * The flags of `loadlab plan` that need no scenario to check (cli/commands/plan.ts): whole-number
 * flags, --workers-min, and the seeds of a sweep (the price flags: price-flags.ts, shared with
 * `loadlab run`). A bad one is a CliError (exit 2) naming the flag.
 */
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
