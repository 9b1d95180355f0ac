/**
 * plan.html: the recommendation, then with a workerConcurrency grid the workers × concurrency heat
 * map (render-plan-grid-html.ts), then the charts (plan-charts.ts: each SLO and the cost against
 * workersMax, the Pareto front with a grid; drawn by uPlot, inlined), then plan.md's tables. One
 * self-contained file in report.html's style: no network, and the same plan gives the same bytes.
 */
import type { Scenario } from '../load/scenario/schema.js';
import { chartAssetsHtml, chartHtml } from '../report/html/charts.js';
import { htmlDocument } from '../report/html/document.js';
import { mdToHtml } from '../report/html/md-to-html.js';
import { planCharts } from './plan-charts.js';
import { concurrencyGrid } from './plan-grid-table.js';
import type { PlanResult } from './plan-result.js';
import { GRID_CSS, gridHeatHtml } from './render-plan-grid-html.js';
import { renderPlanMarkdown } from './render-plan-md.js';

export function renderPlanHtml(p: PlanResult, sc: Scenario): string {
  const md = renderPlanMarkdown(p, sc);
  // The heading, recommendation, SLOs and sweep above the charts; the sections (rows, Erlang C, …) below.
  const cut = md.indexOf('\n## ');
  const [intro, sections] = cut < 0 ? [md, ''] : [md.slice(0, cut), md.slice(cut + 1)];
  const grid = concurrencyGrid(p);
  return htmlDocument(
    `loadlab plan: ${p.scenario.name}`,
    `<header>
${mdToHtml(intro)}
</header>
${grid ? `${gridHeatHtml(grid)}\n` : ''}<section id="charts"><h2>Charts</h2>
<p class="note">Hover a chart for the values at that point; click a legend entry to hide or show its series.</p>
${planCharts(p).map(chartHtml).join('\n')}
</section>
<section id="tables">
${mdToHtml(grid ? withoutSection(sections, '## Workers × concurrency') : sections)}
</section>
${chartAssetsHtml()}`,
    grid ? GRID_CSS : '',
  );
}

/** The markdown without one `## ` section (the heat map above shows it). */
function withoutSection(md: string, heading: string): string {
  const from = md.indexOf(`${heading}\n`);
  if (from < 0) return md;
  const to = md.indexOf('\n## ', from);
  return to < 0 ? md.slice(0, from) : md.slice(0, from) + md.slice(to + 1);
}
