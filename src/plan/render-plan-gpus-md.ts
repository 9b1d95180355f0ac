/**
 * plan.md with GPU types (endpoint.gpus, or a grid over gpus): where the prices come from, per
 * type, and the section *Workers and cost by GPU type*: each row's workers on each type, their
 * billed seconds and dollars per run (the range over the seeds). Pure.
 */
import type { PricesUsed } from '../report/prices.js';
import { pricesSource } from '../report/render-md.js';
import { describeKnobs } from './grid.js';
import { spread, usd } from './plan-format.js';
import type { PlanResult } from './plan-result.js';

/** "H100-PRO $0.00116/s, A100 $0.00076/s" (one price for flex and active), or both when they differ. */
const perType = (byGpu: NonNullable<PricesUsed['byGpu']>) =>
  Object.entries(byGpu)
    .map(([g, p]) => (p.flexPerSec === p.activePerSec ? `${g} $${p.flexPerSec}/s` : `${g} flex $${p.flexPerSec}/s, active $${p.activePerSec}/s`))
    .join('; ');

/** The prices beside a cost: per GPU type when the plan has them so, else flex and active and their source. */
export function pricesText(p: PricesUsed): string {
  if (p.byGpu) return `each worker at its GPU type's price: ${perType(p.byGpu)}; price book ${p.priceBook}: ${p.asOf}`;
  return `flex $${p.flexPerSec}/s, active $${p.activePerSec}/s, ${pricesSource(p)}`;
}

/** Where the prices come from, short (the command's output): the types and the book, or pricesSource. */
export function pricesShort(p: PricesUsed): string {
  return p.byGpu ? `${Object.keys(p.byGpu).join(', ')} each at its price, price book ${p.priceBook}: ${p.asOf}` : pricesSource(p);
}

/** The section's lines; none when no row bills GPU types apart. */
export function gpuSection(p: PlanResult): string[] {
  const rows = p.rows.filter((r) => r.workers.byGpu);
  if (!rows.length) return [];
  const grid = p.sweep.grid !== undefined;
  const priced = rows.some((r) => r.workers.byGpu!.some((g) => g.costPerRun));
  const head = ['workersMax', ...(grid ? ['knobs'] : []), 'GPU type', 'workers started', 'billed s flex / active', ...(priced ? ['$ per run'] : [])];
  const L = [
    '## Workers and cost by GPU type',
    '',
    "Each worker starts on the first GPU type of its point's list with room (hostCapacity) and is billed at that type's price. Each cell is the range over the seeds.",
    '',
    `| ${head.join(' | ')} |`,
    `|${head.map(() => '---').join('|')}|`,
  ];
  for (const r of rows)
    for (const g of r.workers.byGpu!)
      L.push(
        `| ${[
          String(r.workersMax),
          ...(grid ? [describeKnobs(r.knobs ?? {}) || '—'] : []),
          g.gpu,
          spread(g.started),
          `${spread(g.flexSeconds)} / ${spread(g.activeSeconds)}`,
          ...(priced ? [g.costPerRun ? spread(g.costPerRun, usd) : '—'] : []),
        ].join(' | ')} |`,
      );
  return L;
}
