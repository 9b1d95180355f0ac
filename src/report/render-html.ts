/**
 * report.html: one self-contained page a person looks at after a run — the verdict banner, charts
 * over time (uPlot, inlined; no network), headroom bars and report.md's tables. Built in
 * report/html/ (page.ts); deterministic: the same RunResult gives the same bytes, so re-rendering
 * a report.json reproduces the file.
 */
import { renderPage } from './html/page.js';
import type { RunResult } from './run-result.js';

export function renderHtml(r: RunResult): string {
  return renderPage(r);
}
