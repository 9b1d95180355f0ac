/**
 * Worker prices and what a bill costs at them (worker-bill.ts bills the seconds). Pure. Used by
 * `loadlab plan` (every row) and `loadlab run` (the report's `workers.cost`).
 */
import type { WorkerBill } from './worker-bill.js';

/** Price per worker-second in dollars. */
export interface Prices {
  flexPerSec: number;
  activePerSec: number;
}

/**
 * Public per-second serverless prices by GPU (RunPod's pricing page, as quoted in loadlab issue
 * 19, November 2026; docs/plan.md dates them). Prices change: pass --price-flex/--price-active.
 */
export const GPU_PRICES: Readonly<Record<string, Prices>> = {
  'H100-PRO': { flexPerSec: 0.00116, activePerSec: 0.00093 },
  A100: { flexPerSec: 0.00076, activePerSec: 0.0006 },
  '4090-PRO': { flexPerSec: 0.00031, activePerSec: 0.00021 },
  H200: { flexPerSec: 0.00155, activePerSec: 0.00124 },
  B200: { flexPerSec: 0.0024, activePerSec: 0.0019 },
};
export const GPU_PRICES_DATE = '2026-11';

/** Prices in force, and the GPU whose built-in prices they are (absent: given as numbers). */
export type PricesUsed = Prices & { gpu?: string };

/** Dollars of a run, and per hour of it and per 1 000 completed jobs (null: none completed). */
export interface RunCost {
  total: number;
  perHour: number;
  per1000Jobs: number | null;
}

export function costOf(bill: WorkerBill, prices: Prices, runMs: number, jobsCompleted: number): RunCost {
  const total = bill.activeSeconds * prices.activePerSec + bill.flexSeconds * prices.flexPerSec;
  return {
    total,
    perHour: runMs > 0 ? (total * 3_600_000) / runMs : 0,
    per1000Jobs: jobsCompleted > 0 ? (total * 1000) / jobsCompleted : null,
  };
}
