/**
 * calibration.html: calibration.md as a page, with each fitted duration's CDF drawn over the
 * samples' own (uPlot, inlined: no network), in report.html's style.
 */
import type { ChartSpec } from '../report/html/chart-spec.js';
import { chartAssetsHtml, chartHtml } from '../report/html/charts.js';
import { htmlDocument } from '../report/html/document.js';
import { mdToHtml } from '../report/html/md-to-html.js';
import type { CalibrationWithCurves } from './calibration.js';
import { quantile, upperBound } from './fit-duration.js';
import { renderCalibrationMarkdown } from './render-calibration-md.js';
import { llmCharts } from './render-llm-calibration.js';

const POINTS = 200;

export function renderCalibrationHtml(c: CalibrationWithCurves): string {
  const md = renderCalibrationMarkdown(c);
  const charts = c.curves.map((curve): ChartSpec => {
    const sorted = curve.samples.slice().sort((a, b) => a - b);
    const top = Math.max(1, quantile(sorted, 0.995) * 1.1);
    const x = Array.from({ length: POINTS + 1 }, (_, i) => Math.round(((top * i) / POINTS) * 10) / 10);
    const ecdf = x.map((v) => round4(upperBound(sorted, v) / sorted.length));
    return {
      id: curve.name,
      title: `${curve.name}: observed against fitted CDF`,
      subtitle: `${sorted.length} samples; fitted: ${curve.fit.model}, KS distance ${curve.fit.ks}`,
      unit: 'share of samples',
      xAxis: { kind: 'value', label: 'ms', unit: 'ms' },
      x,
      series: [
        { label: 'observed', values: ecdf },
        { label: `fitted (${curve.fit.model})`, values: x.map((v) => round4(curve.fit.cdf(v))), dash: true },
      ],
    };
  });
  charts.push(...llmCharts(c));
  return htmlDocument(
    `loadlab calibrate: ${c.calibration.run.scenario}`,
    `${mdToHtml(md)}
<section id="charts"><h2>CDFs</h2>
${charts.map(chartHtml).join('\n')}
</section>
${chartAssetsHtml()}`,
  );
}

const round4 = (x: number): number => Math.round(x * 1e4) / 1e4;
