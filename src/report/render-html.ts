/**
 * report.html: one self-contained page (no scripts, no external assets) — the markdown report's
 * tables plus an inline SVG chart of requests, 2xx and 429s per 10 s window.
 */
import { renderMarkdown } from './render-md.js';
import type { RunResult } from './run-result.js';

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** Markdown subset of render-md: headings, tables, paragraphs, `code`, **bold** (plan.html uses it too). */
export function mdToHtml(md: string): string {
  const inline = (s: string) => esc(s).replace(/`([^`]+)`/g, '<code>$1</code>').replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>');
  const out: string[] = [];
  const lines = md.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i]!;
    if (l.startsWith('# ')) out.push(`<h1>${inline(l.slice(2))}</h1>`);
    else if (l.startsWith('## ')) out.push(`<h2>${inline(l.slice(3))}</h2>`);
    else if (l.startsWith('|')) {
      const rows: string[][] = [];
      for (; i < lines.length && lines[i]!.startsWith('|'); i++) rows.push(lines[i]!.slice(1, -1).split(' | ').map((c) => c.trim()));
      i--;
      const [head, , ...body] = rows;
      out.push(`<table><thead><tr>${head!.map((c) => `<th>${inline(c)}</th>`).join('')}</tr></thead><tbody>${body.map((r) => `<tr>${r.map((c) => `<td>${inline(c)}</td>`).join('')}</tr>`).join('')}</tbody></table>`);
    } else if (l.trim()) out.push(`<p>${inline(l)}</p>`);
  }
  return out.join('\n');
}

/** Most points per line of the chart: windows beyond it are merged (a 30-day run has 259 200). */
const MAX_POINTS = 1000;

/** Groups of `per` consecutive windows, each shown as its largest value (peaks stay visible). */
function groupMax(ys: readonly number[], per: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < ys.length; i += per) {
    let m = 0;
    for (let k = i; k < Math.min(i + per, ys.length); k++) if (ys[k]! > m) m = ys[k]!;
    out.push(m);
  }
  return out;
}

function chart(r: RunResult): string {
  const t = r.timeline;
  if (t.requests.length === 0) return '';
  const w = 900;
  const h = 200;
  const per = Math.ceil(t.requests.length / MAX_POINTS);
  const limitedAll = t.requests.map((_, i) => t.limitedRate[i]! + t.limitedConcurrency[i]! + t.limitedQueue[i]! + t.limitedUnknown[i]!);
  const [requests, ok, limited] = [t.requests, t.responses2xx, limitedAll].map((ys) => groupMax(ys, per));
  const n = requests!.length;
  // A loop, not Math.max(...ys): spreading a long run's windows overflows the call stack.
  const max = Math.max(1, groupMax(requests!, n)[0] ?? 0);
  const line = (ys: number[], color: string) =>
    `<polyline fill="none" stroke="${color}" stroke-width="1.5" points="${ys.map((y, i) => `${((i + 0.5) * w / n).toFixed(1)},${(h - (y / max) * h).toFixed(1)}`).join(' ')}"/>`;
  const unit = per === 1 ? `per ${t.windowMs / 1000} s window` : `most in one ${t.windowMs / 1000} s window, each point ${per} windows`;
  return `<h2>Timeline (${unit})</h2><svg viewBox="0 0 ${w} ${h}" width="100%" height="${h}" role="img" aria-label="requests per window">` +
    `${line(requests!, '#3366cc')}${line(ok!, '#2e9e44')}${line(limited!, '#d62728')}</svg>` +
    `<p><span style="color:#3366cc">requests</span> · <span style="color:#2e9e44">2xx</span> · <span style="color:#d62728">429</span> · peak ${max} per window</p>`;
}

export function renderHtml(r: RunResult): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>loadlab run: ${esc(r.scenario.name)}</title>
<style>body{font:14px/1.4 system-ui,sans-serif;margin:2em;max-width:1100px}table{border-collapse:collapse;margin:.5em 0 1.5em}th,td{border:1px solid #ccc;padding:3px 8px;text-align:right}th:first-child,td:first-child{text-align:left}code{background:#f4f4f4}</style>
</head><body>
${mdToHtml(renderMarkdown(r))}
${chart(r)}
</body></html>
`;
}
