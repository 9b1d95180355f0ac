/**
 * The figures table of docs/performance.md, as `npm run bench` (run-all.ts) regenerates it: pure
 * functions, no file or process access, so that they can be tested without running a bench.
 * `figuresTable` renders the figures the benches recorded (figures.ts) and the machine they ran
 * on; `replaceMarked` puts a text between the two marker lines of a document and leaves every
 * other byte of it as it was.
 */

export const TABLE_START = '<!-- bench:table:start -->';
export const TABLE_END = '<!-- bench:table:end -->';

/** One figure a bench printed, as it recorded it for the table. */
export interface Figure {
  /** The bench script, e.g. `sim-throughput`. */
  bench: string;
  /** What was measured, e.g. `100 jobs/s: simulated jobs per wall-second`. */
  name: string;
  /** The figure with its unit, already formatted (e.g. `812 000 jobs/s`). */
  value: string;
  /** The goal it is held against, if any (e.g. `≥ 1 000 000`). */
  target?: string;
}

/** Where and when the figures were measured. */
export interface Machine {
  /** ISO date (YYYY-MM-DD) of the run. */
  date: string;
  cores: number;
  /** e.g. `AMD EPYC 7B13`. */
  cpuModel?: string;
  /** `process.version`, e.g. `v20.20.2`. */
  node: string;
  /** `os.loadavg()[0]` at the start of the run. */
  loadAverage?: number;
  /** The highest `os.loadavg()[0]` seen after each bench. */
  loadAverageMax?: number;
}

/** A bench that did not finish (its figures, if any, are still listed). */
export interface Failure {
  bench: string;
  exitCode: number | null;
}

/** The reports' number format (src/lib/group-digits.ts), under the name the benches use. */
export { groupDigits as formatNumber } from '../src/lib/group-digits.js';

const cell = (s: string): string => s.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');

/**
 * The text between the markers: a line on the machine and date, then one table row per figure,
 * in the order given (run-all passes them in the order the benches ran).
 */
export function figuresTable(figures: readonly Figure[], machine: Machine, failures: readonly Failure[] = []): string {
  const cpu = machine.cpuModel ? ` (${machine.cpuModel})` : '';
  const max = machine.loadAverageMax !== undefined ? ` (up to ${machine.loadAverageMax.toFixed(2)} during the run)` : '';
  const load = machine.loadAverage !== undefined ? `, load average ${machine.loadAverage.toFixed(2)} at the start${max}` : '';
  const lines = [
    `Measured ${machine.date} by \`npm run bench\` on ${machine.cores} cores${cpu}, Node ${machine.node}${load}.`,
    '',
    '| bench | figure | today | target |',
    '|---|---|---|---|',
    ...figures.map((f) => `| \`${cell(f.bench)}\` | ${cell(f.name)} | ${cell(f.value)} | ${cell(f.target ?? '')} |`),
  ];
  for (const f of failures) lines.push('', `\`${f.bench}\` did not finish (exit ${f.exitCode ?? 'signal'}): its figures are missing above.`);
  return lines.join('\n');
}

/**
 * `doc` with everything between the line holding TABLE_START and the line holding TABLE_END
 * replaced by `content` (on lines of its own). The marker lines and every byte before and after
 * them stay as they were. Throws if either marker is missing, repeated or out of order.
 */
export function replaceMarked(doc: string, content: string): string {
  const start = doc.indexOf(TABLE_START);
  const end = doc.indexOf(TABLE_END);
  if (start < 0 || end < 0) throw new Error(`the document has no ${start < 0 ? TABLE_START : TABLE_END} marker`);
  if (doc.indexOf(TABLE_START, start + 1) >= 0 || doc.indexOf(TABLE_END, end + 1) >= 0) throw new Error('the table markers appear more than once');
  if (end < start) throw new Error(`${TABLE_END} comes before ${TABLE_START}`);
  const nl = doc.includes('\r\n') ? '\r\n' : '\n';
  const bodyFrom = start + TABLE_START.length;
  return `${doc.slice(0, bodyFrom)}${nl}${content.replace(/\r?\n/g, nl)}${nl}${doc.slice(end)}`;
}
