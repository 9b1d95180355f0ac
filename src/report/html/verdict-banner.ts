/**
 * The verdict at the top of report.html (verdict.ts): PASS green, FAIL red, INVALID amber; the
 * failed thresholds by expression with the measured value, why the run is not valid, the 5xx and
 * transport errors that did not fail it, and which limits throttled it (429s by cause).
 */
import { groupDigits } from '../../lib/group-digits.js';
import type { RunResult, ThresholdResult } from '../run-result.js';
import { verdict } from '../verdict.js';
import { esc } from './escape.js';

const secs = (ms: number) => `${groupDigits(ms / 1000, ms % 1000 ? 1 : 0)} s`;

function measured(t: ThresholdResult): string {
  if (t.window) return `measured ${t.window.value} in the window ${secs(t.window.fromMs)}–${secs(t.window.toMs)}`;
  if (t.value === null) return `no data${t.reason ? ` (${esc(t.reason)})` : ''}`;
  return `measured ${t.value}`;
}

export function verdictBanner(r: RunResult): string {
  const v = verdict(r);
  const items: string[] = [];
  if (v.cause) items.push(`<li class="cause">${esc(v.cause)}</li>`);
  if (r.aborted) items.push(`<li>run aborted at ${secs(r.aborted.atMs)} by <code>${esc(r.aborted.threshold)}</code> (abortOnFail)</li>`);
  if (r.interrupted) items.push(`<li>run interrupted at ${secs(r.interrupted.atMs)}: its figures cover only that far</li>`);
  for (const t of r.thresholds.filter((x) => !x.ok)) items.push(`<li>threshold <code>${esc(t.expr)}</code> failed: ${measured(t)}</li>`);
  const but = /\(but (.*)\)$/.exec(v.line)?.[1];
  if (but) items.push(`<li>not failing the run, but seen: ${esc(but)}</li>`);
  if (v.warning) items.push(`<li>${esc(v.warning)}</li>`);
  const passed = r.thresholds.filter((t) => t.ok).length;
  const summary = r.thresholds.length ? `${passed} of ${r.thresholds.length} thresholds passed` : 'no thresholds set';
  return (
    `<section class="verdict verdict-${v.status.toLowerCase()}" id="verdict">` +
    `<p class="verdict-status"><strong>${v.status}</strong> <span>${esc(summary)}</span></p>` +
    `${items.length ? `<ul>${items.join('')}</ul>` : ''}` +
    `<p class="verdict-limits">${esc(v.throttled)}<br>${esc(v.limits)}</p></section>`
  );
}
