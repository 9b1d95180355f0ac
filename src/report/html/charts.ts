/**
 * Server side of the charts: `chartHtml(spec)` is one `<figure>` holding its ChartSpec as JSON;
 * `chartAssetsHtml()` is what a page needs once, in its `<head>` or before `</body>` after the
 * figures: uPlot's CSS and JS inlined, then the boot script (chart-boot.ts) that draws every figure.
 * Pure apart from reading uPlot once (assets.ts): the same specs give the same bytes.
 */
import { uplotAssets } from './assets.js';
import { CHART_BOOT_JS } from './chart-boot.js';
import type { ChartSlot } from './chart-slot.js';
import { hasData, NO_DATA, type ChartSpec } from './chart-spec.js';
import { esc, scriptJson } from './escape.js';
import { InternalError } from '../../contract/loadlab-error.js';

export type { ChartSeries, ChartSpec, ChartXAxis } from './chart-spec.js';

/**
 * One chart: title, subtitle, the plot area and the spec as JSON (drawn by the boot script). A
 * chart with nothing to draw (`hasData`: no x, or no value outside reference lines) is not drawn:
 * its one-line note (`spec.noData`) stands in its place, on every page.
 */
export function chartHtml(spec: ChartSpec): string {
  for (const s of spec.series) {
    if (s.values.length !== spec.x.length)
      throw new InternalError(`chart ${spec.id}: series "${s.label}" has ${s.values.length} values for ${spec.x.length} x`);
  }
  if (!hasData(spec)) return noteHtml(spec.id, spec.title, spec.noData ?? NO_DATA);
  return (
    `<figure class="chart" id="chart-${esc(spec.id)}"><figcaption><strong>${esc(spec.title)}</strong>` +
    `${spec.subtitle ? ` <span class="sub">${esc(spec.subtitle)}</span>` : ''}</figcaption>` +
    `<div class="chart-plot"></div><script type="application/json" class="chart-data">${scriptJson(spec)}</script></figure>`
  );
}

/**
 * uPlot (CSS and JS, marked `id="uplot-css"` / `id="uplot-js"`) and the boot script. Put it after
 * the last figure: the boot script draws the figures already in the document.
 */
export function chartAssetsHtml(): string {
  const { js, css } = uplotAssets();
  return `<style id="uplot-css">${css}</style>\n<script id="uplot-js">${js}</script>\n<script id="chart-boot">${CHART_BOOT_JS}</script>`;
}

/** A chart slot: its chart, or the one-line note that stands where a chart has nothing to draw. */
export function slotHtml(s: ChartSlot): string {
  return s.kind === 'chart' ? chartHtml(s.spec) : noteHtml(s.id, s.title, s.note);
}

const noteHtml = (id: string, title: string, text: string): string =>
  `<p class="chart-note" id="note-${esc(id)}"><strong>${esc(title)}:</strong> ${esc(text)}</p>`;
