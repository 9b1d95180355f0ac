/**
 * plan.html's workers × concurrency heat map (plan-grid-table.ts): the same tables as plan.md's,
 * each cell coloured by how the point fares against the deciding SLO — green when it meets every
 * SLO, deeper as its worst seed nears the limit; red when it fails, deeper the further past; grey
 * with no data — with the price and the figure in the cell and the details on hover. The
 * recommendation is outlined in orange. Plain HTML and CSS: no script, nothing fetched. Pure.
 */
import { esc } from '../report/html/escape.js';
import { describeKnobs } from './grid.js';
import type { ConcurrencyGrid, GridCell } from './plan-grid-table.js';
import { engineGrid, engineWaitingText, figureText, priceText } from './render-plan-grid-md.js';

export const GRID_CSS = `
table.heat{border-collapse:collapse;margin:.5em 0 1.2em;font-variant-numeric:tabular-nums}
table.heat caption{text-align:left;font-weight:600;margin-bottom:.3em}
table.heat th,table.heat td{border:1px solid #fff;padding:4px 10px;text-align:center;min-width:7em}
table.heat th{background:#f4f4f4}table.heat td small{color:#333}
table.heat td.rec{outline:3px solid #e67e22;outline-offset:-3px;font-weight:600}
table.heat td.none{background:#f7f7f7;color:#999}
.heat-key span{display:inline-block;padding:1px 8px;margin-right:.5em;border-radius:3px}
@media print{table.heat td{-webkit-print-color-adjust:exact;print-color-adjust:exact}}
`;

/** How far the deciding SLO's worst seed is towards its limit (1 at the limit; above 1 past it); null with no data. */
function ratio(g: ConcurrencyGrid, v: number | null): number | null {
  const lim = g.slo.value;
  if (v === null) return null;
  if (g.slo.cmp[0] === '>') return v > 0 ? lim / v : Infinity;
  return lim > 0 ? v / lim : v > 0 ? Infinity : 0;
}

/** The cell's background: lightness in whole percent, so the page's bytes do not depend on rounding noise. */
function colour(g: ConcurrencyGrid, c: GridCell): string {
  const r = ratio(g, c.value);
  if (r === null) return 'hsl(0 0% 88%)';
  if (c.meets) return `hsl(130 50% ${Math.round(90 - 25 * Math.min(1, r))}%)`;
  return `hsl(0 70% ${Math.round(85 - 25 * Math.min(1, Math.max(0, r - 1)))}%)`;
}

function cellHtml(g: ConcurrencyGrid, c: GridCell | null, w: number, conc: number): string {
  if (!c) return '<td class="none" title="not run: its line stopped early">—</td>';
  const failing = c.failing.length ? `fails SLO ${c.failing.join(', ')}` : 'meets every SLO on every seed';
  const waiting = engineWaitingText(c);
  const title = `workersMax ${w}, workerConcurrency ${conc}: ${failing}; ${priceText(g, c.price)}; ${g.slo.expr}: worst seed ${figureText(g, c.value)}${waiting ? `; ${waiting} of request time` : ''}${c.recommended ? '; the recommendation' : ''}${c.onFront ? '; on the Pareto front' : ''}`;
  const mark = `${c.recommended ? '★ ' : ''}${c.meets ? '✓' : '✗'}${c.onFront ? ' ◆' : ''}`;
  return `<td${c.recommended ? ' class="rec"' : ''} style="background:${colour(g, c)}" title="${esc(title)}">${mark} ${esc(priceText(g, c.price))}<br><small>${esc(figureText(g, c.value))}</small>${waiting ? `<br><small>${esc(waiting)}</small>` : ''}</td>`;
}

export function gridHeatHtml(g: ConcurrencyGrid): string {
  const tables = g.tables.map((t) => {
    const caption = Object.keys(t.others).length ? `<caption>With ${esc(describeKnobs(t.others))}</caption>` : '';
    const head = `<tr><th>workersMax \\ workerConcurrency</th>${t.concurrency.map((c) => `<th>${c}</th>`).join('')}</tr>`;
    const body = t.workers.map((w, i) => `<tr><th>${w}</th>${t.cells[i]!.map((c, j) => cellHtml(g, c, w, t.concurrency[j]!)).join('')}</tr>`).join('\n');
    return `<table class="heat">${caption}<thead>${head}</thead><tbody>\n${body}\n</tbody></table>`;
  });
  return `<section id="grid"><h2>Workers × concurrency</h2>
<p class="note">Each cell is a point: ✓ meets every SLO on every seed, ✗ does not; its ${g.priceBy === 'cost per hour' ? 'cost per hour' : 'billed worker-seconds'} (mean over the seeds); below it <code>${esc(g.slo.expr)}</code>'s worst seed (the SLO most points fail)${engineGrid(g) ? '; then the share of request time spent waiting inside the LLM engine (mean over the seeds)' : ''}. ★ and the orange outline: the recommendation, the cheapest point meeting every SLO; ◆ on the Pareto front; —: not run. Hover a cell for its details.</p>
<p class="note heat-key"><span style="background:hsl(130 50% 88%)">well within the SLO</span><span style="background:hsl(130 50% 66%)">meets, near its limit</span><span style="background:hsl(0 70% 84%)">fails, just past it</span><span style="background:hsl(0 70% 61%)">fails, twice its limit or more</span></p>
${tables.join('\n')}
</section>`;
}
