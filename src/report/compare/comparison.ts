/**
 * `Comparison`: two stored runs side by side, as plain data for the renderers and the regression
 * check (compare.ts builds it).
 */
import type { MetricRow } from './metric-row.js';

/** What identifies one side of a comparison. */
export interface RunSide {
  /** The report.json read. */
  file: string;
  scenario: string;
  seed: number | string;
  target: string;
  version: number;
  durationMs: number;
  elapsedMs: number;
  /** The run's verdict line (PASS, FAIL: …, INVALID: …). */
  verdict: string;
}

/** One operation or flow: its rows, and whether both runs have it. */
export interface GroupComparison {
  name: string;
  /** `A` or `B`: only that run has it (the other side's values are null). */
  in: 'both' | 'A' | 'B';
  rows: MetricRow[];
}

export interface Comparison {
  a: RunSide;
  b: RunSide;
  /** Why the two runs may not compare like for like (different scenarios, durations, …). */
  warnings: string[];
  operations: GroupComparison[];
  flows: GroupComparison[];
  /** Whole-run figures: requests, rates, jobs, webhooks, expiries. */
  totals: MetricRow[];
}
