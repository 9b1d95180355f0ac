/**
 * compare.md: the two runs, then per operation, per flow and for the whole run a table of A, B,
 * the change (absolute and %) and its direction; with a regression limit, the metrics beyond it
 * are marked and listed first. Pure: render(comparison, options).
 */
import type { Comparison, GroupComparison } from './comparison.js';
import { formatChange, formatDelta, formatPct, formatValue } from './format.js';
import type { MetricRow } from './metric-row.js';
import { isRegression, regressions } from './regression.js';

export interface CompareRenderOptions {
  /** `--fail-on-regression PCT`: mark and list the metrics that got worse by more than this. */
  failOnRegression?: number;
}

const table = (head: string[], rows: string[][]): string[] => [
  `| ${head.join(' | ')} |`,
  `|${head.map(() => '---').join('|')}|`,
  ...rows.map((r) => `| ${r.join(' | ')} |`),
  '',
];

export function directionText(r: MetricRow, o: CompareRenderOptions): string {
  if (o.failOnRegression !== undefined && isRegression(r, o.failOnRegression)) return '**worse: regression**';
  return r.direction === 'worse' ? '**worse**' : r.direction;
}

function metricTable(rows: readonly MetricRow[], o: CompareRenderOptions): string[] {
  return table(
    ['metric', 'A', 'B', 'change', 'change %', 'B is'],
    rows.map((r) => [r.label, formatValue(r.unit, r.a), formatValue(r.unit, r.b), formatDelta(r), formatPct(r), directionText(r, o)]),
  );
}

function groupSection(kind: string, g: GroupComparison, o: CompareRenderOptions): string[] {
  const only = g.in === 'both' ? '' : ` (only in ${g.in})`;
  return [`### ${kind} \`${g.name}\`${only}`, '', ...metricTable(g.rows, o)];
}

export function renderCompareMarkdown(c: Comparison, o: CompareRenderOptions = {}): string {
  const out: string[] = [`# loadlab compare: ${c.a.scenario} vs ${c.b.scenario}`, ''];
  out.push(
    ...table(
      ['', 'report', 'scenario', 'seed', 'target', 'traffic', 'run time', 'verdict'],
      (['a', 'b'] as const).map((k) => {
        const s = c[k];
        return [k.toUpperCase(), `\`${s.file}\``, s.scenario, String(s.seed), s.target, `${s.durationMs / 1000} s`, `${s.elapsedMs / 1000} s`, s.verdict];
      }),
    ),
  );
  out.push(
    'Change = B − A; rates in percentage points (pp). Lower latency, fewer 429s, errors and failures are better; more 2xx and completed jobs are better; requests and sessions follow the load.',
    '',
  );
  if (c.warnings.length) out.push('**Warnings:**', '', ...c.warnings.map((w) => `- ${w}`), '');
  if (o.failOnRegression !== undefined) {
    const reg = regressions(c, o.failOnRegression);
    out.push(`## Regressions (worse by more than ${o.failOnRegression} %)`, '');
    out.push(reg.length ? reg.map((x) => `- ${x.where}: ${formatChange(x.row)}`).join('\n') : 'None.', '');
  }
  out.push('## Operations', '', 'Response time: intended send → answer, in ms. Error rate: non-2xx answers (429s and no answer included) / requests.', '');
  for (const g of c.operations) out.push(...groupSection('Operation', g, o));
  if (c.flows.length) {
    out.push(
      '## Flows',
      '',
      'Job times per flow in ms (one sample per terminal status read); a streaming flow adds TTFT, ITL and TPOT in ms, tokens and goodput.',
      '',
    );
    for (const g of c.flows) out.push(...groupSection('Flow', g, o));
  }
  out.push('## Whole run', '', ...metricTable(c.totals, o));
  return `${out.join('\n').trimEnd()}\n`;
}
