/**
 * The flags of `loadlab plan` that need no scenario to check (cli/commands/plan.ts): whole-number
 * flags, prices (--gpu, --price-flex, --price-active, or the scenario's plan.gpu), --workers-min,
 * and the seeds of a sweep. A bad one is a CliError (exit 2) naming the flag.
 */
import { GPU_PRICES, type Prices } from '../../report/prices.js';
import { CliError, EXIT } from '../exit-codes.js';

export interface PlanArgs {
  scenario: string;
  'workers-max'?: string;
  'workers-min'?: string;
  seeds?: number;
  seed?: number | string;
  slo?: string[];
  jobs?: number;
  exhaustive?: boolean;
  out?: string;
  'price-flex'?: number;
  'price-active'?: number;
  gpu?: string;
  grid?: string[];
}

export const bad = (m: string) => new CliError(m, EXIT.USAGE);

export function wholeAtLeast(flag: string, v: number | undefined, min: number, dflt: number): number {
  if (v === undefined) return dflt;
  if (!Number.isInteger(v) || v < min) throw bad(`--${flag}: must be a whole number >= ${min}, got ${v}`);
  return v;
}

/** Prices from --gpu (else the scenario's plan.gpu, named `where`) and --price-flex/--price-active. */
export function pricesOf(a: PlanArgs, scenarioGpu: string | undefined, where: string): (Prices & { gpu?: string }) | undefined {
  let base: (Prices & { gpu?: string }) | undefined;
  const gpu = a.gpu ?? scenarioGpu;
  if (gpu !== undefined) {
    const key = Object.keys(GPU_PRICES).find((k) => k.toLowerCase() === gpu.toLowerCase());
    if (!key) throw bad(`${a.gpu !== undefined ? '--gpu' : where}: unknown GPU "${gpu}"; known: ${Object.keys(GPU_PRICES).join(', ')} (or give --price-flex and --price-active)`);
    base = { ...GPU_PRICES[key]!, gpu: key };
  }
  for (const [flag, v] of [['price-flex', a['price-flex']], ['price-active', a['price-active']]] as const) {
    if (v !== undefined && !(Number.isFinite(v) && v >= 0)) throw bad(`--${flag}: must be a price per worker-second in dollars, >= 0, got ${v}`);
  }
  if (a['price-flex'] === undefined && a['price-active'] === undefined) return base;
  const flexPerSec = a['price-flex'] ?? base?.flexPerSec;
  const activePerSec = a['price-active'] ?? base?.activePerSec;
  if (flexPerSec === undefined || activePerSec === undefined) throw bad(`--${flexPerSec === undefined ? 'price-flex' : 'price-active'}: give both --price-flex and --price-active, or --gpu NAME`);
  return { flexPerSec, activePerSec, ...(base?.gpu && a['price-flex'] === undefined && a['price-active'] === undefined ? { gpu: base.gpu } : {}) };
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
