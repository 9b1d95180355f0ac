/**
 * Writes every dashboard as `<uid>.json` (two-space JSON and a newline) into a folder. Pure data
 * in, same bytes out: no timestamps, ids from the layout, so regenerating gives no diff.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Dashboard } from './grafana-json.js';
import { runDashboard } from './run-dashboard.js';
import { simulatorDashboard } from './simulator-dashboard.js';

export function dashboards(): Dashboard[] {
  return [runDashboard(), simulatorDashboard()];
}

export const dashboardText = (d: Dashboard) => `${JSON.stringify(d, null, 2)}\n`;

/** The files written, as paths. */
export function writeDashboards(dir: string): string[] {
  mkdirSync(dir, { recursive: true });
  return dashboards().map((d) => {
    const file = join(dir, `${d.uid}.json`);
    writeFileSync(file, dashboardText(d));
    return file;
  });
}
