/**
 * report.html, top to bottom: the title, the verdict banner, the charts over time (uPlot, inlined),
 * headroom bars, then report.md's tables. One self-contained file: no network, and the same
 * RunResult gives the same bytes (no timestamps, no random ids).
 */
import { renderMarkdown } from '../render-md.js';
import type { RunResult } from '../run-result.js';
import { chartAssetsHtml, slotHtml } from './charts.js';
import { headroomBars } from './headroom-bars.js';
import { mdToHtml } from './md-to-html.js';
import { htmlDocument } from './document.js';
import { chartSlots } from './series.js';
import { verdictBanner } from './verdict-banner.js';

/** report.md without its verdict lines (the banner says it): the heading and intro, then the sections. */
function splitMarkdown(md: string): { intro: string; sections: string } {
  const lines = md.split('\n');
  const h1 = lines.findIndex((l) => l.startsWith('# '));
  const rest = lines.slice(Math.max(h1, 0));
  const h2 = rest.findIndex((l) => l.startsWith('## '));
  return h2 < 0 ? { intro: rest.join('\n'), sections: '' } : { intro: rest.slice(0, h2).join('\n'), sections: rest.slice(h2).join('\n') };
}

export function renderPage(r: RunResult): string {
  const { intro, sections } = splitMarkdown(renderMarkdown(r));
  const slots = chartSlots(r);
  return htmlDocument(
    `loadlab ${r.kind}: ${r.scenario.name}`,
    `<header>
${mdToHtml(intro)}
</header>
${verdictBanner(r)}
<section id="charts"><h2>Over time</h2>
<p class="note">x: run time (h:mm:ss) since the first arrival. Hover a chart for the values at that time; click a legend entry to hide or show its line.</p>
${slots.map(slotHtml).join('\n')}
</section>
${headroomBars(r)}
<section id="tables">
${mdToHtml(sections)}
</section>
${chartAssetsHtml()}`,
  );
}
