/**
 * The workers × concurrency grid of a plan: when the grid sweeps workerConcurrency, its points
 * pivoted into tables of workersMax rows × workerConcurrency columns (one table per combination of
 * the grid's other knobs). Each cell is one point: whether it meets every SLO, its price, and the
 * deciding SLO's worst seed. plan.md (render-plan-grid-md.ts) and plan.html
 * (render-plan-grid-html.ts) draw it. Pure: read from plan.json's content alone.
 */
import { parseThreshold, type Threshold } from '../report/thresholds.js';
import { describeKnobs, pointKey, type Knobs } from './grid.js';
import { worstSeed } from './pareto-front.js';
import { rowPrice, type PlanResult, type PlanRow } from './plan-result.js';

export interface GridCell {
  row: PlanRow;
  meets: boolean;
  /** Mean over the seeds: dollars per hour with prices, else billed worker-seconds (the recommendation's `cheapestBy`). */
  price: number;
  /** The deciding SLO's worst seed (the highest for `<`, the lowest for `>`); null: a seed has no data. */
  value: number | null;
  /** 1-based numbers of the SLOs some seed fails. */
  failing: number[];
  /** The cheapest point meeting every SLO. */
  recommended: boolean;
  onFront: boolean;
  /** An LLM engine plan: the share of request time spent waiting inside the engine, mean over the seeds (null: no seed has one); absent otherwise. */
  engineWaiting?: number | null;
}

export interface GridTable {
  /** The grid's other knobs, the same in the whole table ({} when workerConcurrency is the only one). */
  others: Knobs;
  /** Row headers (ascending) and column headers (in the grid's order). */
  workers: number[];
  concurrency: number[];
  /** cells[row][column]; null: not run (its line stopped early). */
  cells: (GridCell | null)[][];
}

export interface ConcurrencyGrid {
  /** The SLO the cells show (index into the plan's SLOs): the one most points fail, ties to the first listed. */
  deciding: number;
  slo: Threshold;
  priceBy: 'cost per hour' | 'billed worker-seconds';
  tables: GridTable[];
}

const KNOB = 'workerConcurrency';

/** The mean of the values a seed has; null when none has. */
function meanOf(xs: readonly (number | null)[]): number | null {
  const vs = xs.filter((x): x is number => x !== null);
  return vs.length ? vs.reduce((a, b) => a + b, 0) / vs.length : null;
}
const withoutConcurrency = (k: Knobs): Knobs => Object.fromEntries(Object.entries(k).filter(([n]) => n !== KNOB));

/** The tables, or null when the grid does not sweep workerConcurrency. */
export function concurrencyGrid(p: PlanResult): ConcurrencyGrid | null {
  const lines = p.sweep.grid;
  if (!lines?.some((l) => l.knobs[KNOB] !== undefined) || !p.slo.exprs.length) return null;
  const slos = p.slo.exprs.map((e) => parseThreshold(e) as Threshold);
  const fails = slos.map((_, i) => p.rows.filter((r) => r.slo[i]!.met.some((m) => !m)).length);
  const deciding = fails.indexOf(Math.max(...fails));
  const rec = p.recommendation;
  const recKey = rec.workersMax === null ? null : pointKey(rec.workersMax, rec.knobs ?? {});
  const front = new Set((p.paretoFront ?? []).map((f) => pointKey(f.workersMax, f.knobs)));
  const workers = [...new Set(p.rows.map((r) => r.workersMax))].sort((a, b) => a - b);
  const concurrency = [...new Set(lines.map((l) => Number(l.knobs[KNOB])))];
  // One table per combination of the other knobs, in the grid's order.
  const groups = new Map<string, Knobs>();
  for (const l of lines) {
    const o = withoutConcurrency(l.knobs);
    groups.set(describeKnobs(o), o);
  }
  const cellOf = (r: PlanRow | undefined): GridCell | null =>
    r === undefined
      ? null
      : {
          row: r,
          meets: r.meetsAll,
          price: rowPrice(r),
          value: worstSeed(slos[deciding]!, r.slo[deciding]!.values),
          failing: r.slo.flatMap((s, i) => (s.met.every((m) => m) ? [] : [i + 1])),
          recommended: pointKey(r.workersMax, r.knobs) === recKey,
          onFront: front.has(pointKey(r.workersMax, r.knobs)),
          ...(r.measured.engineWaitingShare ? { engineWaiting: meanOf(r.measured.engineWaitingShare) } : {}),
        };
  const tables = [...groups.values()].map((others) => {
    const find = (w: number, c: number) =>
      p.rows.find((r) => r.workersMax === w && Number(r.knobs?.[KNOB]) === c && describeKnobs(withoutConcurrency(r.knobs ?? {})) === describeKnobs(others));
    return { others, workers, concurrency, cells: workers.map((w) => concurrency.map((c) => cellOf(find(w, c)))) };
  });
  return { deciding, slo: slos[deciding]!, priceBy: rec.cheapestBy ?? (p.prices ? 'cost per hour' : 'billed worker-seconds'), tables };
}
