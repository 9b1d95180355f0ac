/**
 * What a loadlab page (report.html, plan.html, calibration.html) shows, read from its HTML string
 * without a browser: the charts it draws (each `<figure>`'s ChartSpec), the one-line notes standing
 * where a chart had nothing to draw, and the checks every page must pass.
 */
import { expect } from 'vitest';
import type { ChartSpec } from '../../src/report/html/chart-spec.js';

/** Every chart the page draws, as the spec its `<figure>` carries. */
export function drawnCharts(html: string): ChartSpec[] {
  return [...html.matchAll(/<script type="application\/json" class="chart-data">(.*?)<\/script>/g)].map((m) => JSON.parse(m[1]!) as ChartSpec);
}

/** The one-line notes in place of charts: id → text. */
export function chartNotes(html: string): Record<string, string> {
  return Object.fromEntries([...html.matchAll(/<p class="chart-note" id="note-([^"]+)">(.*?)<\/p>/g)].map((m) => [m[1]!, m[2]!]));
}

/**
 * Every drawn chart has a value to draw (a number in a series other than a limit or a model's
 * line), and no line of the page's text is a markdown list item shown as a paragraph ("- …").
 */
export function expectNoEmptyChartNorDashLines(html: string): void {
  for (const c of drawnCharts(html)) {
    const data = c.series.filter((s) => !s.reference).flatMap((s) => s.values.filter((v) => typeof v === 'number' && Number.isFinite(v)));
    expect(data.length, `chart ${c.id} ("${c.title}") is drawn with no value`).toBeGreaterThan(0);
  }
  expect(html).not.toMatch(/<p>- /);
}
