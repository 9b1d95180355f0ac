/**
 * The markdown a CI job shows on its summary page (GitHub's `$GITHUB_STEP_SUMMARY`): the verdict
 * with 429s by cause and the limits above 80 %, the thresholds, and the headline tables
 * (operations, jobs, arrivals). Shorter than report.md, which stays the full account. Pure.
 */
import type { RunResult } from './run-result.js';
import { verdict } from './verdict.js';

const row = (cells: (string | number)[]): string => `| ${cells.map(String).join(' | ')} |`;
const head = (cells: string[]): string[] => [row(cells), `|${cells.map(() => '---').join('|')}|`];
/** Markdown table cells: a `|` would split the cell. */
const cell = (s: string): string => s.replace(/\|/g, '\\|');

export function renderStepSummary(r: RunResult): string {
  const v = verdict(r);
  const s = r.scenario;
  const out = [
    `### loadlab ${r.kind} ${s.name}: ${v.status}`,
    '',
    `**${cell(v.line)}**  `,
    ...(v.warning ? [`${cell(v.warning)}  `] : []),
    `${v.throttled}  `,
    v.limits,
    '',
    `Target ${r.target.kind}${r.target.url ? ` (${r.target.url})` : ''}, endpoint \`${s.endpointId}\`, seed ${s.seed}.`,
    '',
  ];
  if (r.thresholds.length) {
    out.push(...head(['threshold', 'measured', 'result']));
    for (const t of r.thresholds) out.push(row([`\`${cell(t.expr)}\``, t.value ?? 'no data', t.ok ? 'pass' : '**FAIL**']));
    out.push('');
  }
  out.push(...head(['operation', 'requests', 'by status', '429s', 'p50 ms', 'p99 ms']));
  for (const [op, o] of Object.entries(r.operations)) {
    const statuses = Object.entries(o.byStatus)
      .map(([k, n]) => `${k}×${n}`)
      .join(' ');
    out.push(row([op, o.requests, statuses || '–', o.byStatus['429'] ?? 0, o.responseMs.summary.p50, o.responseMs.summary.p99]));
  }
  out.push('');
  const j = r.jobs;
  const outcomes =
    Object.entries(j.outcomes ?? j.finalStatus)
      .map(([k, n]) => `${k} ${n}`)
      .join(', ') || 'none ended';
  const a = r.arrivals;
  out.push(`Jobs: ${j.accepted} accepted (${outcomes}). Arrivals: ${a.intended} intended, ${a.late} late, ${a.dropped} dropped.`, '');
  return `${out.join('\n')}\n`;
}
