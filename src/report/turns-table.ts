/**
 * report.md's multi-turn sessions (`flows.*.turns`): per flow, the sessions that ended, the turns
 * started, the turns per ended session (mean, p50, max), the sessions that answered every turn and
 * how long those took (p50 / p95 / max: first turn's intended send → last answer, think times
 * included). Each turn's own figures are in the tables of operations, jobs and streams.
 */
import type { RunResult } from './run-result.js';

const fmt = (n: number): string => (Number.isInteger(n) ? String(n) : n.toFixed(2));

export function turnsTable(r: RunResult): string[] {
  const flows = Object.entries(r.flows).flatMap(([n, f]) => (f.turns ? [[n, f.turns] as const] : []));
  if (!flows.length) return [];
  return [
    '## Multi-turn sessions',
    '',
    "Each session is a conversation: each turn one request carrying the whole history (its TTFT, response and job times are in the tables above, per request). A session ends at its last turn's answer, or at the first turn that did not complete (its outcome is the session's). Session time: first turn's intended send → last answer, think times included, for sessions that answered every turn (ms).",
    '',
    '| flow | sessions ended | turns | turns per session mean / p50 / max | answered every turn | session time p50 / p95 / max |',
    '|---|---|---|---|---|---|',
    ...flows.map(([n, t]) => {
      const p = t.perSession.summary;
      const s = t.sessionMs.summary;
      const time = t.sessionMs.count ? [s.p50, s.p95, s.max].map(fmt).join(' / ') : '–';
      return `| ${n} | ${t.perSession.count} | ${t.total} | ${t.perSession.count ? [p.mean, p.p50, p.max].map(fmt).join(' / ') : '–'} | ${t.sessionMs.count} | ${time} |`;
    }),
    '',
  ];
}
