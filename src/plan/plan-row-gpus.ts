/**
 * A plan row's workers and cost by GPU type, for a point whose endpoint lists its types
 * (`gpus`, or a grid over gpus): per type, in the point's priority order, the workers started,
 * billed seconds and (with prices) dollars per run, each per seed. A seed whose run placed no
 * worker on a type has 0 there. Pure.
 */
import { billCost, type PricesUsed } from '../report/prices.js';
import type { PointResult } from './sweep-point.js';

export interface RowGpu {
  gpu: string;
  started: number[];
  activeSeconds: number[];
  flexSeconds: number[];
  /** Dollars per run at the type's own prices (with prices only). */
  costPerRun?: number[];
}

const r6 = (v: number) => Math.round(v * 1e6) / 1e6;

/** The row's types, or undefined when its runs bill no GPU type apart (no `gpus`). */
export function rowGpus(runs: readonly PointResult[], prices: PricesUsed | undefined): RowGpu[] | undefined {
  if (!runs.some((r) => r.bill.byGpu)) return undefined;
  const types = [...new Set(runs.flatMap((r) => (r.bill.byGpu ?? []).map((g) => g.gpu)))];
  return types.map((gpu) => {
    const bills = runs.map((r) => r.bill.byGpu?.find((g) => g.gpu === gpu));
    const row: RowGpu = {
      gpu,
      started: bills.map((b) => b?.workersStarted ?? 0),
      activeSeconds: bills.map((b) => r6(b?.activeSeconds ?? 0)),
      flexSeconds: bills.map((b) => b?.flexSeconds ?? 0),
    };
    // The type's own prices when the plan has them per type (a book), else the one pair given (--price-flex/--price-active).
    const p = prices && (prices.byGpu?.[gpu] ?? prices);
    if (p) row.costPerRun = bills.map((b) => r6(b ? billCost(b, p) : 0));
    return row;
  });
}
