/**
 * plan.html: plan.md as one self-contained page (no scripts, no external assets), its tables as
 * HTML tables. Charts of each SLO against workersMax are for later. Pure.
 */
import type { Scenario } from '../load/scenario/schema.js';
import { mdToHtml } from '../report/html/md-to-html.js';
import type { PlanResult } from './plan-result.js';
import { renderPlanMarkdown } from './render-plan-md.js';

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export function renderPlanHtml(p: PlanResult, sc: Scenario): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>loadlab plan: ${esc(p.scenario.name)}</title>
<style>body{font:14px/1.4 system-ui,sans-serif;margin:2em;max-width:1400px}table{border-collapse:collapse;margin:.5em 0 1.5em}th,td{border:1px solid #ccc;padding:3px 8px;text-align:right}th:first-child,td:first-child{text-align:left}code{background:#f4f4f4}</style>
</head><body>
${mdToHtml(renderPlanMarkdown(p, sc))}
</body></html>
`;
}
