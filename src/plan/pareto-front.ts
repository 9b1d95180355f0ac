/**
 * The cost-vs-SLO Pareto front of a grid plan: the rows no other row beats on cost and on every
 * SLO at once (each SLO's worst seed), cheapest first. Pure.
 */
import type { Threshold } from '../report/thresholds.js';
import type { Knobs } from './grid.js';

/** One SLO's worst seed: the lowest for `>` (and `>=`), else the highest; null when a seed has no data. */
export function worstSeed(t: Threshold, values: readonly (number | null)[]): number | null {
  if (values.some((v) => v === null)) return null;
  const vs = values as number[];
  return t.cmp[0] === '>' ? Math.min(...vs) : Math.max(...vs);
}

/** What the front reads of a plan row (plan-result.ts's PlanRow). */
interface FrontRow {
  workersMax: number;
  knobs?: Knobs;
  slo: { values: (number | null)[] }[];
}

/** Rows no other row beats (≤ on cost and every SLO's worst seed, < on one); cheapest first. */
export function paretoFront<R extends FrontRow>(
  rows: readonly R[],
  slos: readonly Threshold[],
  price: (r: R) => number,
): { workersMax: number; knobs: Knobs }[] {
  // Each objective as "lower is better"; SLOs compared with == or != take no part.
  const dirs = slos.map((t) => (t.cmp[0] === '<' ? 1 : t.cmp[0] === '>' ? -1 : 0));
  const scored = rows.flatMap((r) => {
    const worst = r.slo.map((s, i) => {
      const w = worstSeed(slos[i]!, s.values);
      return w === null ? null : dirs[i]! * w;
    });
    return worst.some((v) => v === null) ? [] : [{ r, objs: [price(r), ...(worst as number[])] }];
  });
  const beats = (a: number[], b: number[]) => a.every((v, i) => v <= b[i]!) && a.some((v, i) => v < b[i]!);
  return scored
    .filter((x) => !scored.some((y) => beats(y.objs, x.objs)))
    .sort((a, b) => a.objs[0]! - b.objs[0]!)
    .map((x) => ({ workersMax: x.r.workersMax, knobs: x.r.knobs ?? {} }));
}
