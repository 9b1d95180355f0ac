/**
 * The files a report directory holds besides report.json — report.md, report.html, metrics.om —
 * and the optional JUnit file, written the same way by `loadlab run` and `loadlab report`. Both
 * render from report.json's parsed text, never from the run's objects in memory, so re-rendering
 * a stored report gives the same bytes the run wrote.
 */
import { closeSync, mkdirSync, openSync, writeFileSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { renderMarkdown } from '../report/render-md.js';
import { renderHtml } from '../report/render-html.js';
import { renderJunit } from '../report/render-junit.js';
import { writeOpenMetrics } from '../report/render-openmetrics.js';
import type { RunResult } from '../report/run-result.js';

/** The file names inside a report directory. */
export const REPORT_FILES = { json: 'report.json', md: 'report.md', html: 'report.html', metrics: 'metrics.om' } as const;

/** report.md, report.html and metrics.om (time 0 at `startMs`) into `dir`. */
export function writeRenderedReports(dir: string, r: RunResult, startMs: number): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, REPORT_FILES.md), renderMarkdown(r));
  writeFileSync(join(dir, REPORT_FILES.html), renderHtml(r));
  writeMetrics(join(dir, REPORT_FILES.metrics), r, startMs);
}

/** The thresholds as JUnit XML (`--junit FILE`). */
export function writeJunit(file: string, r: RunResult): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, renderJunit(r));
}

/** metrics.om, written piece by piece (a 30-day run's is hundreds of MB). */
function writeMetrics(file: string, r: RunResult, startMs: number): void {
  const fd = openSync(file, 'w');
  try {
    writeOpenMetrics(r, startMs, (text) => writeSync(fd, text));
  } finally {
    closeSync(fd);
  }
}
