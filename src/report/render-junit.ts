/**
 * `--junit FILE`: the scenario's thresholds as JUnit XML, one test case per threshold (CONTRACT
 * §5), so CI shows which limit a run broke. A threshold with no data fails ("no data"). Pure:
 * render(result); the wall time of the run is the suite's `time`.
 */
import type { RunResult } from './run-result.js';

const XML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };
const esc = (s: string): string => s.replace(/[&<>"']/g, (c) => XML_ESCAPES[c]!);

export function renderJunit(r: RunResult): string {
  const name = `loadlab.${r.scenario.name}`;
  const failures = r.thresholds.filter((t) => !t.ok).length;
  const secs = ((r.wallClock?.wallMs ?? 0) / 1000).toFixed(3);
  const cases = r.thresholds.map((t) => {
    const head = `    <testcase classname="${esc(name)}" name="${esc(t.expr)}" time="0">`;
    if (t.ok) return `${head}\n      <system-out>${esc(`measured ${t.value}`)}</system-out>\n    </testcase>`;
    const got = t.value === null ? 'no data' : `got ${t.value}`;
    return `${head}\n      <failure message="${esc(`${t.expr}: ${got}`)}" type="threshold">${esc(`${t.expr} failed: ${got} (scenario ${r.scenario.name}, seed ${r.scenario.seed}, target ${r.target.kind})`)}</failure>\n    </testcase>`;
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="loadlab" tests="${r.thresholds.length}" failures="${failures}" errors="0" time="${secs}">`,
    `  <testsuite name="${esc(name)}" tests="${r.thresholds.length}" failures="${failures}" errors="0" skipped="0" time="${secs}">`,
    ...cases,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}
