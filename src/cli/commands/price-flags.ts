/**
 * The price flags of `loadlab plan` and `loadlab run`: --gpu NAME (else the scenario's plan.gpu),
 * --price-flex, --price-active. One definition of the options and one check: a bad value is a
 * CliError (exit 2) naming the flag (or the scenario's file and field) and what it takes.
 */
import type { Argv } from 'yargs';
import { GPU_PRICES, type PricesUsed } from '../../report/prices.js';
import { CliError, EXIT } from '../exit-codes.js';

export interface PriceArgs {
  'price-flex'?: number;
  'price-active'?: number;
  gpu?: string;
}

const bad = (m: string) => new CliError(m, EXIT.USAGE);

/** Prices from --gpu (else the scenario's plan.gpu, named `where`) and --price-flex/--price-active; undefined: none. */
export function pricesOf(a: PriceArgs, scenarioGpu: string | undefined, where: string): PricesUsed | undefined {
  let base: PricesUsed | undefined;
  const gpu = a.gpu ?? scenarioGpu;
  if (gpu !== undefined) {
    const key = Object.keys(GPU_PRICES).find((k) => k.toLowerCase() === gpu.toLowerCase());
    if (!key)
      throw bad(
        `${a.gpu !== undefined ? '--gpu' : where}: unknown GPU "${gpu}"; known: ${Object.keys(GPU_PRICES).join(', ')} (or give --price-flex and --price-active)`,
      );
    base = { ...GPU_PRICES[key]!, gpu: key };
  }
  for (const [flag, v] of [
    ['price-flex', a['price-flex']],
    ['price-active', a['price-active']],
  ] as const) {
    if (v !== undefined && !(Number.isFinite(v) && v >= 0)) throw bad(`--${flag}: must be a price per worker-second in dollars, >= 0, got ${v}`);
  }
  if (a['price-flex'] === undefined && a['price-active'] === undefined) return base;
  const flexPerSec = a['price-flex'] ?? base?.flexPerSec;
  const activePerSec = a['price-active'] ?? base?.activePerSec;
  if (flexPerSec === undefined || activePerSec === undefined)
    throw bad(`--${flexPerSec === undefined ? 'price-flex' : 'price-active'}: give both --price-flex and --price-active, or --gpu NAME`);
  return { flexPerSec, activePerSec, ...(base?.gpu && a['price-flex'] === undefined && a['price-active'] === undefined ? { gpu: base.gpu } : {}) };
}

/** Was any price flag given? */
export const priceFlagsGiven = (a: PriceArgs): boolean => a.gpu !== undefined || a['price-flex'] !== undefined || a['price-active'] !== undefined;

/** Adds --gpu, --price-flex and --price-active to a command. */
export function priceOptions<T>(y: Argv<T>): Argv<T & PriceArgs> {
  return y
    .option('gpu', {
      type: 'string',
      describe: `Bill workers at this GPU's built-in per-second prices (default: the scenario's plan.gpu; ${Object.keys(GPU_PRICES).join(', ')}; docs/plan.md dates them); an llm.engine without maxNumSeqs or maxNumBatchedTokens gets vLLM's defaults on it`,
    })
    .option('price-flex', {
      type: 'number',
      describe: 'Dollars per second of a flex worker (from its start, cold start included, to its stop, idle tail included; rounded up to whole seconds)',
    })
    .option('price-active', { type: 'number', describe: 'Dollars per second of an active worker (workersMin of them, billed for the whole run)' });
}
