/**
 * `--junit FILE`: the scenario's thresholds as JUnit XML, one test case per threshold,
 * so CI shows which limit a run broke. A threshold with no data fails ("no data"). One
 * more case, `run is valid`, fails when the verdict is INVALID (target unreachable, or the load
 * generator fell behind), with the cause as its message. Pure:
 * render(result); the wall time of the run is the suite's `time`.
 */
import type { RunResult } from './run-result.js';
import { verdict, type Verdict } from './verdict.js';

const XML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };
const esc = (s: string): string => s.replace(/[&<>"']/g, (c) => XML_ESCAPES[c]!);

/** What a valid run's validity case says: the target answered, the generator kept up (or its late arrivals decided nothing). */
function validNote(r: RunResult, v: Verdict): string {
  const a = r.arrivals;
  if (v.warning) return `the target answered; ${v.warning.replace(/^warning: /, '')}`;
  return `the target answered; ${a.late + a.dropped} of ${a.intended} arrivals late or dropped (at most 1 % allowed)`;
}

export function renderJunit(r: RunResult): string {
  const name = `loadlab.${r.scenario.name}`;
  const v = verdict(r);
  const failures = r.thresholds.filter((t) => !t.ok).length + (v.status === 'INVALID' ? 1 : 0);
  const tests = r.thresholds.length + 1;
  const secs = ((r.wallClock?.wallMs ?? 0) / 1000).toFixed(3);
  const cases = r.thresholds.map((t) => {
    const head = `    <testcase classname="${esc(name)}" name="${esc(t.expr)}" time="0">`;
    if (t.ok) return `${head}\n      <system-out>${esc(`measured ${t.value}`)}</system-out>\n    </testcase>`;
    const got = t.window
      ? `got ${t.window.value} in ${t.window.fromMs / 1000}–${t.window.toMs / 1000} s`
      : t.value === null
        ? (t.reason ?? 'no data')
        : `got ${t.value}`;
    return `${head}\n      <failure message="${esc(`${t.expr}: ${got}`)}" type="threshold">${esc(`${t.expr} failed: ${got} (scenario ${r.scenario.name}, seed ${r.scenario.seed}, target ${r.target.kind})`)}</failure>\n    </testcase>`;
  });
  const validity = `    <testcase classname="${esc(name)}" name="run is valid" time="0">\n      ${
    v.status === 'INVALID'
      ? `<failure message="${esc(v.cause!)}" type="invalid">${esc(`${v.line} (scenario ${r.scenario.name}, seed ${r.scenario.seed}, target ${r.target.kind})`)}</failure>`
      : `<system-out>${esc(validNote(r, v))}</system-out>`
  }\n    </testcase>`;
  cases.unshift(validity);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="loadlab" tests="${tests}" failures="${failures}" errors="0" time="${secs}">`,
    `  <testsuite name="${esc(name)}" tests="${tests}" failures="${failures}" errors="0" skipped="0" time="${secs}">`,
    ...cases,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}
