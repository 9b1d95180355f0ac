/**
 * compare.html: one self-contained page in report.html's style with compare.md's content — the
 * two runs, the regression list, the tables per operation, per flow and for the whole run (worse
 * in red, better in green) — then the two runs' charts overlaid (compare-charts.ts; uPlot inlined
 * by report/html/charts.ts, no network). Pure: the same inputs give the same bytes.
 */
import type { ChartSlot } from '../html/chart-slot.js';
import { chartAssetsHtml, slotHtml } from '../html/charts.js';
import { esc } from '../html/escape.js';
import { htmlDocument } from '../html/document.js';
import type { Comparison, GroupComparison } from './comparison.js';
import { formatChange, formatDelta, formatPct, formatValue } from './format.js';
import type { MetricRow } from './metric-row.js';
import { isRegression, regressions } from './regression.js';
import type { CompareRenderOptions } from './render-compare-md.js';

const STYLE = `td.worse{color:#b00020;font-weight:600}td.better{color:#1e7b34}td.regression{background:#fde0e0}.warn{color:#8a5300}\n`;

function cellClass(r: MetricRow, o: CompareRenderOptions): string {
  if (o.failOnRegression !== undefined && isRegression(r, o.failOnRegression)) return 'worse regression';
  return r.direction === 'worse' || r.direction === 'better' ? r.direction : '';
}

function metricTable(rows: readonly MetricRow[], o: CompareRenderOptions): string {
  const head = ['metric', 'A', 'B', 'change', 'change %', 'B is'].map((h) => `<th>${h}</th>`).join('');
  const body = rows
    .map((r) => {
      const cls = cellClass(r, o);
      const dir = cls.includes('regression') ? 'worse: regression' : r.direction;
      return (
        `<tr><td>${esc(r.label)}</td><td>${esc(formatValue(r.unit, r.a))}</td><td>${esc(formatValue(r.unit, r.b))}</td>` +
        `<td>${esc(formatDelta(r))}</td><td>${esc(formatPct(r))}</td><td${cls ? ` class="${cls}"` : ''}>${dir}</td></tr>`
      );
    })
    .join('');
  return `<table><thead><tr>${head}</tr></thead><tbody>${body}</tbody></table>`;
}

function group(kind: string, g: GroupComparison, o: CompareRenderOptions): string {
  return `<h3>${kind} <code>${esc(g.name)}</code>${g.in === 'both' ? '' : ` (only in ${g.in})`}</h3>\n${metricTable(g.rows, o)}`;
}

function runsTable(c: Comparison): string {
  const head = ['', 'report', 'scenario', 'seed', 'target', 'traffic', 'run time', 'verdict'].map((h) => `<th>${h}</th>`).join('');
  const rows = (['a', 'b'] as const)
    .map((k) => {
      const s = c[k];
      return `<tr>${[k.toUpperCase(), `<code>${esc(s.file)}</code>`, esc(s.scenario), esc(String(s.seed)), s.target, `${s.durationMs / 1000} s`, `${s.elapsedMs / 1000} s`, esc(s.verdict)].map((x) => `<td>${x}</td>`).join('')}</tr>`;
    })
    .join('');
  return `<table><thead><tr>${head}</tr></thead><tbody>${rows}</tbody></table>`;
}

export function renderCompareHtml(c: Comparison, o: CompareRenderOptions = {}, charts: readonly ChartSlot[] = []): string {
  const parts: string[] = [
    `<h1>loadlab compare: ${esc(c.a.scenario)} vs ${esc(c.b.scenario)}</h1>`,
    runsTable(c),
    '<p>Change = B − A; rates in percentage points (pp). Lower latency, fewer 429s, errors and failures are better; more 2xx and completed jobs are better; requests and sessions follow the load.</p>',
  ];
  if (c.warnings.length)
    parts.push(`<p class="warn"><strong>Warnings:</strong></p><ul class="warn">${c.warnings.map((w) => `<li>${esc(w)}</li>`).join('')}</ul>`);
  if (o.failOnRegression !== undefined) {
    const reg = regressions(c, o.failOnRegression);
    parts.push(
      `<h2>Regressions (worse by more than ${o.failOnRegression} %)</h2>`,
      reg.length ? `<ul>${reg.map((x) => `<li>${esc(`${x.where}: ${formatChange(x.row)}`)}</li>`).join('')}</ul>` : '<p>None.</p>',
    );
  }
  parts.push(
    '<h2>Operations</h2>',
    '<p>Response time: intended send → answer, in ms. Error rate: non-2xx answers (429s and no answer included) / requests.</p>',
  );
  parts.push(...c.operations.map((g) => group('Operation', g, o)));
  if (c.flows.length)
    parts.push('<h2>Flows</h2>', '<p>Job times per flow in ms (one sample per terminal status read).</p>', ...c.flows.map((g) => group('Flow', g, o)));
  parts.push('<h2>Whole run</h2>', metricTable(c.totals, o));
  if (charts.length) {
    parts.push(
      '<section id="charts"><h2>Over time</h2>',
      '<p class="note">A solid, B dashed, in the same colour; x: run time (h:mm:ss) since each run\'s first arrival. Hover a chart for the values at that time; click a legend entry to hide or show its line.</p>',
      ...charts.map(slotHtml),
      '</section>',
    );
    if (charts.some((s) => s.kind === 'chart')) parts.push(chartAssetsHtml());
  }
  return htmlDocument(`loadlab compare: ${c.a.scenario} vs ${c.b.scenario}`, parts.join('\n'), STYLE);
}
