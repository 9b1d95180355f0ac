/**
 * The report's `workers` section (run-result.ts WorkersSection): a run's worker bill
 * (worker-bill.ts) and, with prices, its cost (prices.ts), rounded for report.json. Pure.
 */
import { WORKER_STATES, type WorkerState } from '../contract/sim-events.js';
import { billCost, costOf, type PricesUsed } from './prices.js';
import type { BillingSection, GpuWorkers, WorkersSection } from './run-result.js';
import { billedStates, type GpuBill, type WorkerBill } from './worker-bill.js';

const r3 = (v: number) => Math.round(v * 1e3) / 1e3;
const r6 = (v: number) => Math.round(v * 1e6) / 1e6;

/** A run's worker bill and what else the target saw of its workers. */
export interface WorkerBillSeen extends WorkerBill {
  /** Workers whose start ran past the endpoint's initTimeoutMs (unhealthy from then on). */
  unhealthyOnStart?: number;
}

/** The rule a bill was made under and the prices' book (report.json `workers.billing`, plan.json `billing`). */
export function billingSection(initializing: boolean, prices?: PricesUsed): BillingSection {
  return {
    initializing,
    billedStates: billedStates(initializing),
    ...(prices?.priceBook ? { priceBook: prices.priceBook, asOf: prices.asOf!, gpu: prices.gpu! } : {}),
  };
}

/** `prices` with where they come from (gpu, priceBook, asOf) when read from a price book. */
export function pricesSection(prices: PricesUsed): PricesUsed {
  return {
    flexPerSec: prices.flexPerSec,
    activePerSec: prices.activePerSec,
    ...(prices.gpu ? { gpu: prices.gpu, asOf: prices.asOf!, priceBook: prices.priceBook! } : {}),
  };
}

const byState = (s: Record<string, number>) => Object.fromEntries(WORKER_STATES.map((k) => [k, r3(s[k] ?? 0)])) as Record<WorkerState, number>;

/** One GPU type's workers and, with prices, their cost (the type's own prices when the run has them). */
function gpuWorkers(g: GpuBill, prices: PricesUsed | undefined): GpuWorkers {
  const p = prices && (prices.byGpu?.[g.gpu] ?? prices);
  return {
    gpu: g.gpu,
    started: g.workersStarted,
    secondsByState: byState(g.secondsByState),
    billedSeconds: { active: r3(g.activeSeconds), flex: g.flexSeconds },
    ...(p ? { cost: { prices: { flexPerSec: p.flexPerSec, activePerSec: p.activePerSec }, perRun: r6(billCost(g, p)) } } : {}),
  };
}

export function workersSection(
  bill: WorkerBillSeen,
  workersMin: number,
  runMs: number,
  jobsCompleted: number,
  prices?: PricesUsed,
  initializing = false,
): WorkersSection {
  const section: WorkersSection = {
    started: bill.workersStarted,
    workersMin,
    secondsByState: byState(bill.secondsByState),
    billedSeconds: { active: bill.activeSeconds, flex: bill.flexSeconds },
    billing: billingSection(initializing, prices),
  };
  if (bill.unhealthyOnStart) section.unhealthyOnStart = bill.unhealthyOnStart;
  if (bill.byGpu) section.byGpu = bill.byGpu.map((g) => gpuWorkers(g, prices));
  if (prices) {
    const c = costOf(bill, prices, runMs, jobsCompleted);
    section.cost = {
      prices: pricesSection(prices),
      perRun: r6(c.total),
      perHour: r6(c.perHour),
      per1000Jobs: c.per1000Jobs === null ? null : r6(c.per1000Jobs),
    };
  }
  return section;
}
