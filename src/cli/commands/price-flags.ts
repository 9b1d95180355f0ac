/**
 * The price flags of `loadlab plan` and `loadlab run`: --gpu NAME (else the scenario's plan.gpu),
 * --price-book NAME (else the scenario's plan.priceBook, else the 2026 book), --price-flex,
 * --price-active. One definition of the options and one check: a bad value is a CliError (exit 2)
 * naming the flag (or the scenario's file and field) and what it takes.
 */
import type { Argv } from 'yargs';
import { DEFAULT_PRICE_BOOK, gpuIn, PRICE_BOOKS, priceBookNamed, type PricesUsed } from '../../report/prices.js';
import { CliError, EXIT } from '../exit-codes.js';

export interface PriceArgs {
  'price-flex'?: number;
  'price-active'?: number;
  'price-book'?: string;
  gpu?: string;
}

const bad = (m: string) => new CliError(m, EXIT.USAGE);

const bookNames = () => PRICE_BOOKS.map((b) => `${b.name} (${b.asOf})`).join(', ');

/**
 * Prices from --gpu (else the scenario's plan.gpu) in --price-book (else its plan.priceBook, else
 * the 2026 book), and --price-flex/--price-active over them; undefined: none. `file`: the
 * scenario's, to name its fields. `gpus`: the GPU types the endpoint lists (endpoint.gpus, and
 * any a plan's grid tries): each is priced from the book (`byGpu`, the first one's as the prices),
 * and neither --gpu nor plan.gpu may name another.
 */
export function pricesOf(
  a: PriceArgs,
  plan: { gpu?: string | undefined; priceBook?: string | undefined } | undefined,
  file: string,
  gpus: readonly string[] = [],
): PricesUsed | undefined {
  const bookName = a['price-book'] ?? plan?.priceBook;
  const book = bookName === undefined ? DEFAULT_PRICE_BOOK : priceBookNamed(bookName);
  if (!book)
    throw bad(`${a['price-book'] !== undefined ? '--price-book' : `${file}: plan.priceBook`}: unknown price book "${bookName}"; known: ${bookNames()}`);
  let base: PricesUsed | undefined;
  const gpu = a.gpu ?? plan?.gpu;
  if (gpus.length > 0) {
    if (gpu !== undefined)
      throw bad(
        `${a.gpu !== undefined ? '--gpu' : `${file}: plan.gpu`}: not with endpoint.gpus (${gpus.join(', ')}): each worker is billed at the price of the GPU type it starts on; leave ${a.gpu !== undefined ? '--gpu' : 'plan.gpu'} out`,
      );
    const byGpu: Record<string, PricesUsed> = {};
    for (const g of gpus) {
      const key = gpuIn(book, g);
      if (!key)
        throw bad(
          `${file}: endpoint.gpus: unknown GPU "${g}" in price book ${book.name}; known: ${book.names.join(', ')} (or give --price-flex and --price-active)`,
        );
      byGpu[g] = { ...book.gpus[key]! };
    }
    base = { ...byGpu[gpus[0]!]!, gpu: gpus[0]!, priceBook: book.name, asOf: book.asOf, byGpu };
  } else if (gpu !== undefined) {
    const key = gpuIn(book, gpu);
    if (!key)
      throw bad(
        `${a.gpu !== undefined ? '--gpu' : `${file}: plan.gpu`}: unknown GPU "${gpu}" in price book ${book.name}; known: ${book.names.join(', ')} (or give --price-flex and --price-active)`,
      );
    base = { ...book.gpus[key]!, gpu: key, priceBook: book.name, asOf: book.asOf };
  } else if (a['price-book'] !== undefined) throw bad(`--price-book: prices a GPU: give --gpu NAME too (or the scenario's plan.gpu)`);
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
  return { flexPerSec, activePerSec };
}

/** The price flag given first (for a refusal), or undefined: none. */
export const priceFlagGiven = (a: PriceArgs): string | undefined =>
  a.gpu !== undefined
    ? 'gpu'
    : a['price-flex'] !== undefined
      ? 'price-flex'
      : a['price-active'] !== undefined
        ? 'price-active'
        : a['price-book'] !== undefined
          ? 'price-book'
          : undefined;

/** Adds --gpu, --price-book, --price-flex and --price-active to a command. */
export function priceOptions<T>(y: Argv<T>): Argv<T & PriceArgs> {
  return y
    .option('gpu', {
      type: 'string',
      describe: `Bill workers at this GPU's per-second price in the price book (default: the scenario's plan.gpu; ${DEFAULT_PRICE_BOOK.names.join(', ')}; docs/plan.md "Cost" dates them); an llm.engine without maxNumSeqs or maxNumBatchedTokens gets vLLM's defaults on it`,
    })
    .option('price-book', {
      type: 'string',
      describe: `Which dated price table --gpu reads: ${bookNames()}; default: the scenario's plan.priceBook, else ${DEFAULT_PRICE_BOOK.name}. 2026: one price for flex and active workers; 2025: the earlier table (active 20–30 % cheaper), to match an old invoice`,
    })
    .option('price-flex', {
      type: 'number',
      describe:
        "Dollars per second of a flex worker, over the book's (e.g. a negotiated discount): billed from its start to its stop (idle tail included; initializing only with endpoint.billing.initializing), rounded up to whole seconds",
    })
    .option('price-active', {
      type: 'number',
      describe: "Dollars per second of an active worker, over the book's (workersMin of them, billed for the whole run)",
    });
}
