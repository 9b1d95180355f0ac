/** report.json: the RunResult as stable, indented JSON (keys in the result's own fixed order). */
import type { RunResult } from './run-result.js';

export function renderJson(r: RunResult): string {
  return `${JSON.stringify(r, null, 2)}\n`;
}

/** Reads a report.json back (re-rendering, merging, CI checks); versions 1 to 3. */
export function parseRunResult(text: string): RunResult {
  const r = JSON.parse(text) as RunResult;
  if (r.version !== 1 && r.version !== 2 && r.version !== 3) throw new Error(`unsupported RunResult version ${String(r.version)}`);
  return r;
}
