/**
 * plan.md's workers × concurrency section (plan-grid-table.ts): a table of workersMax rows ×
 * workerConcurrency columns per combination of the grid's other knobs, each cell a point (meets
 * the SLOs or not, its price, the deciding SLO's worst seed), the recommendation marked ★ and the
 * Pareto front ◆. Pure.
 */
import { describeKnobs } from './grid.js';
import { fmt, usd } from './plan-format.js';
import type { ConcurrencyGrid, GridCell } from './plan-grid-table.js';

/** The price as a cell shows it: dollars per hour, or billed worker-seconds. */
export const priceText = (g: ConcurrencyGrid, v: number) => (g.priceBy === 'cost per hour' ? `${usd(v)}/h` : `${fmt(v)} worker-s`);
/** The share of request time waiting inside the engine (an LLM engine plan's cell), or '' when the cell has none. */
export const engineWaitingText = (c: GridCell): string =>
  c.engineWaiting === undefined
    ? ''
    : c.engineWaiting === null
      ? 'waiting in engine: no data'
      : `waiting in engine ${Math.round(c.engineWaiting * 1000) / 10} %`;
/** The deciding SLO's figure with its unit. */
export const figureText = (g: ConcurrencyGrid, v: number | null) => (v === null ? 'no data' : `${fmt(v)}${g.slo.metric.endsWith('_ms') ? ' ms' : ''}`);

function cellText(g: ConcurrencyGrid, c: GridCell | null): string {
  if (!c) return '—';
  const others = c.failing.filter((i) => i !== g.deciding + 1);
  const waiting = engineWaitingText(c);
  const text = `${c.meets ? '✓' : '✗'} ${priceText(g, c.price)} · ${figureText(g, c.value)}${waiting ? ` · ${waiting}` : ''}${others.length ? ` (fails SLO ${others.join(', ')})` : ''}`;
  return `${c.recommended ? `**★ ${text}**` : text}${c.onFront ? ' ◆' : ''}`;
}

/** Whether the grid's cells carry the engine's waiting share (an LLM engine plan). */
export const engineGrid = (g: ConcurrencyGrid): boolean => g.tables.some((t) => t.cells.some((row) => row.some((c) => c?.engineWaiting !== undefined)));

export function gridSection(g: ConcurrencyGrid): string[] {
  const L: string[] = ['## Workers × concurrency', ''];
  L.push(
    `Each cell is a point: ✓ it meets every SLO on every seed, ✗ it does not; its ${g.priceBy === 'cost per hour' ? 'cost per hour' : 'billed worker-seconds (flex plus active)'} (mean over the seeds); and \`${g.slo.expr}\`'s worst seed (SLO ${g.deciding + 1}, the one most points fail). ★ the recommendation, the cheapest point meeting every SLO; ◆ on the Pareto front; "fails SLO n": a point that fails another SLO; —: not run (its line stopped early).${engineGrid(g) ? ' "waiting in engine": the share of request time spent waiting inside the LLM engine (mean over the seeds; requests queued at the endpoint or held by a worker make the whole).' : ''}`,
  );
  for (const t of g.tables) {
    L.push('');
    if (Object.keys(t.others).length) L.push(`**With ${describeKnobs(t.others)}**`, '');
    const head = ['workersMax \\ workerConcurrency', ...t.concurrency.map(String)];
    L.push(`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`);
    t.workers.forEach((w, i) => L.push(`| ${[String(w), ...t.cells[i]!.map((c) => cellText(g, c))].join(' | ')} |`));
  }
  return L;
}
