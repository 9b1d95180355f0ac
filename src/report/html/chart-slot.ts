import type { ChartSpec } from './chart-spec.js';

/**
 * A place for a chart on the page: the chart, or one line saying why there is none (nothing of
 * the kind happened in the run, or the report's version does not hold the data).
 */
export type ChartSlot = { kind: 'chart'; spec: ChartSpec } | { kind: 'note'; id: string; title: string; note: string };

export const note = (id: string, title: string, text: string): ChartSlot => ({ kind: 'note', id, title, note: text });

/** Sorted keys: the page's series order does not depend on the order a result was built in. */
export const sortedKeys = (o: object): string[] => Object.keys(o).sort();

/** The sum of a per-window column. */
export function total(ys: readonly number[]): number {
  let s = 0;
  for (const y of ys) s += y;
  return s;
}
