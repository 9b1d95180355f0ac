/**
 * The report's `workers` section (run-result.ts WorkersSection): a run's worker bill
 * (worker-bill.ts) and, with prices, its cost (prices.ts), rounded for report.json. Pure.
 */
import { WORKER_STATES, type WorkerState } from '../contract/sim-events.js';
import { costOf, GPU_PRICES_DATE, type PricesUsed } from './prices.js';
import type { WorkersSection } from './run-result.js';
import type { WorkerBill } from './worker-bill.js';

const r3 = (v: number) => Math.round(v * 1e3) / 1e3;
const r6 = (v: number) => Math.round(v * 1e6) / 1e6;

/** A run's worker bill and what else the target saw of its workers. */
export interface WorkerBillSeen extends WorkerBill {
  /** Workers whose start ran past the endpoint's initTimeoutMs (unhealthy from then on). */
  unhealthyOnStart?: number;
}

export function workersSection(bill: WorkerBillSeen, workersMin: number, runMs: number, jobsCompleted: number, prices?: PricesUsed): WorkersSection {
  const section: WorkersSection = {
    started: bill.workersStarted,
    workersMin,
    secondsByState: Object.fromEntries(WORKER_STATES.map((s) => [s, r3(bill.secondsByState[s] ?? 0)])) as Record<WorkerState, number>,
    billedSeconds: { active: bill.activeSeconds, flex: bill.flexSeconds },
  };
  if (bill.unhealthyOnStart) section.unhealthyOnStart = bill.unhealthyOnStart;
  if (prices) {
    const c = costOf(bill, prices, runMs, jobsCompleted);
    section.cost = {
      prices: { flexPerSec: prices.flexPerSec, activePerSec: prices.activePerSec, ...(prices.gpu ? { gpu: prices.gpu, asOf: GPU_PRICES_DATE } : {}) },
      perRun: r6(c.total),
      perHour: r6(c.perHour),
      per1000Jobs: c.per1000Jobs === null ? null : r6(c.per1000Jobs),
    };
  }
  return section;
}
