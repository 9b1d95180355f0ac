/**
 * calibration.html for vllm bench serve results: calibration.md as a page, with each figure
 * measured and predicted drawn against concurrency (uPlot, inlined: no network), in report.html's
 * style. Files at the same concurrency: the first one's figures are drawn.
 */
import type { ChartSpec } from '../../report/html/chart-spec.js';
import { chartAssetsHtml, chartHtml } from '../../report/html/charts.js';
import { htmlDocument } from '../../report/html/document.js';
import { mdToHtml } from '../../report/html/md-to-html.js';
import type { BenchCalibration } from './bench-calibration.js';
import { sourceNames } from './bench-file.js';
import type { LevelFigures } from './bench-metrics.js';
import { FIGURE_HEADS, renderBenchMarkdown } from './render-bench-md.js';

const CHARTS: (keyof LevelFigures)[] = ['itlP50', 'ttftP50', 'e2elP50', 'outputTokensPerS'];

export function renderBenchHtml(c: BenchCalibration): string {
  const byC = new Map<number, BenchCalibration['levels'][number]>();
  for (const l of c.levels) if (!byC.has(l.concurrency)) byC.set(l.concurrency, l);
  const x = [...byC.keys()].sort((a, b) => a - b);
  const charts = CHARTS.filter((k) => x.some((u) => byC.get(u)!.figures[k].measured !== undefined)).map(
    (k): ChartSpec => ({
      id: k,
      title: `${FIGURE_HEADS[k]}: measured and predicted`,
      subtitle: `measured by ${sourceNames(c.sources)}; predicted by the simulator with the fitted worker`,
      unit: k === 'outputTokensPerS' ? 'tokens/s' : 'ms',
      xAxis: { kind: 'value', label: c.sources.every((s) => s === 'vllm') ? '--max-concurrency' : 'concurrency' },
      x,
      series: [
        { label: 'measured', values: x.map((u) => byC.get(u)!.figures[k].measured ?? null), points: true },
        { label: 'predicted', values: x.map((u) => byC.get(u)!.figures[k].predicted ?? null), dash: true, spanGaps: true },
      ],
    }),
  );
  return htmlDocument(
    `loadlab calibrate: ${sourceNames(c.sources)} results`,
    `${mdToHtml(renderBenchMarkdown(c))}
<section id="charts"><h2>Against concurrency</h2>
${charts.map(chartHtml).join('\n')}
</section>
${chartAssetsHtml()}`,
  );
}
