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

/** A dated table of RunPod's public per-second serverless prices, by the `--gpu` names it takes. */
export interface PriceBook {
  /** Its name: what `--price-book` and a scenario's `plan.priceBook` take. */
  name: string;
  /** Since when it is in force, or (an earlier book) until when: shown beside every cost. */
  asOf: string;
  /** Prices by `--gpu` name; the names of one GPU class (aliases) share its prices. */
  gpus: Readonly<Record<string, Prices>>;
  /** The `--gpu` names in the book's order (an object lists names such as `3090` first). */
  names: readonly string[];
}

/** A book from its classes, each its prices and its `--gpu` names. */
function book(name: string, asOf: string, classes: readonly (readonly [Prices, ...string[]])[]): PriceBook {
  const names = classes.flatMap(([, ...ns]) => ns);
  return { name, asOf, names, gpus: Object.fromEntries(classes.flatMap(([p, ...ns]) => ns.map((n) => [n, p]))) };
}

const one = (perSec: number): Prices => ({ flexPerSec: perSec, activePerSec: perSec });

/**
 * RunPod's pricing page since 2026-05-13: one per-second price per GPU class, the same for flex
 * and active workers. docs/plan.md "Cost" lists it with the classes' names.
 */
export const PRICE_BOOK_2026: PriceBook = book('2026', '2026-05-13', [
  [one(0.00016), '16GB', 'A4000', 'A4500', 'RTX4000'],
  [one(0.00019), 'L4', 'A5000', '3090'],
  [one(0.00031), '4090-PRO'],
  [one(0.00034), 'A6000', 'A40'],
  [one(0.00053), 'L40', 'L40S', '6000-ADA'],
  [one(0.00076), 'A100'],
  [one(0.00111), '6000-PRO'],
  [one(0.00116), 'H100-PRO', 'H100'],
  [one(0.00155), 'H200', 'H200-PRO'],
  [one(0.0024), 'B200'],
]);

/**
 * The earlier table (in force until 2026-05-12): active workers 20–30 % cheaper than flex. Kept by
 * name (`--price-book 2025`) for runs that must match an invoice of that time.
 */
export const PRICE_BOOK_2025: PriceBook = book('2025', 'until 2026-05-12', [
  [{ flexPerSec: 0.00116, activePerSec: 0.00093 }, 'H100-PRO'],
  [{ flexPerSec: 0.00076, activePerSec: 0.0006 }, 'A100'],
  [{ flexPerSec: 0.00031, activePerSec: 0.00021 }, '4090-PRO'],
  [{ flexPerSec: 0.00155, activePerSec: 0.00124 }, 'H200'],
  [{ flexPerSec: 0.0024, activePerSec: 0.0019 }, 'B200'],
]);

/** Every price book by name; the first is the default. */
export const PRICE_BOOKS: readonly PriceBook[] = [PRICE_BOOK_2026, PRICE_BOOK_2025];
export const DEFAULT_PRICE_BOOK = PRICE_BOOK_2026;

/** The book of this name (case-insensitive; its date works too), or undefined. */
export const priceBookNamed = (name: string): PriceBook | undefined => PRICE_BOOKS.find((b) => b.name.toLowerCase() === name.toLowerCase() || b.asOf === name);

/** The `--gpu` name as the book spells it (case-insensitive), or undefined. */
export const gpuIn = (book: PriceBook, gpu: string): string | undefined => book.names.find((k) => k.toLowerCase() === gpu.toLowerCase());

/**
 * Prices in force. From a book: `gpu` (the name as the book spells it), `priceBook` (its name) and
 * `asOf`; absent: given as numbers (--price-flex/--price-active).
 */
export type PricesUsed = Prices & {
  gpu?: string;
  priceBook?: string;
  asOf?: string;
  /** An endpoint listing its GPU types (`gpus`): each type's prices by its name (a bill's `byGpu` is priced by these). */
  byGpu?: Readonly<Record<string, Prices>>;
};

/** Dollars of active and flex seconds at `prices`. */
export const billCost = (b: { activeSeconds: number; flexSeconds: number }, prices: Prices): number =>
  b.activeSeconds * prices.activePerSec + b.flexSeconds * prices.flexPerSec;

/** Dollars of a run, and per hour of it and per 1 000 completed jobs (null: none completed). */
export interface RunCost {
  total: number;
  perHour: number;
  per1000Jobs: number | null;
}

export function costOf(bill: WorkerBill, prices: PricesUsed, runMs: number, jobsCompleted: number): RunCost {
  const total =
    bill.byGpu !== undefined && prices.byGpu !== undefined
      ? bill.byGpu.reduce((sum, g) => sum + billCost(g, prices.byGpu![g.gpu] ?? prices), 0)
      : billCost(bill, prices);
  return {
    total,
    perHour: runMs > 0 ? (total * 3_600_000) / runMs : 0,
    per1000Jobs: jobsCompleted > 0 ? (total * 1000) / jobsCompleted : null,
  };
}
