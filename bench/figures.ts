/**
 * How a bench hands its headline figures to `npm run bench` for the table in docs/performance.md:
 * when run-all.ts runs it, `BENCH_FIGURES` names a file and each `recordFigure` appends one JSON
 * line to it. Run alone (no `BENCH_FIGURES`) it does nothing: the console output is the same
 * either way.
 */
import { appendFileSync } from 'node:fs';
import type { Figure } from './figures-table.js';

export function recordFigure(bench: string, name: string, value: string, target?: string): void {
  const file = process.env.BENCH_FIGURES;
  if (!file) return;
  const f: Figure = target === undefined ? { bench, name, value } : { bench, name, value, target };
  appendFileSync(file, `${JSON.stringify(f)}\n`);
}
