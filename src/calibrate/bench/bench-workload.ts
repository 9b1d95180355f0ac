/**
 * The requests a bench file's run sent, as loadlab specs: the prompt length (openai-chat's
 * `promptTokens`) and the answer length (`llm.outputTokens`, with `maxTokens` for the request so
 * it never cuts a drawn answer). With --save-detailed arrays: the measured lengths themselves
 * (a constant when they are all equal); with summaries only: the mean, as a constant.
 */
import { type LlmConfig, MAX_OUTPUT_TOKENS } from '../../contract/llm-config.js';
import { empiricalPoints } from '../fit-duration.js';
import type { BenchRun } from './bench-file.js';

export type TokenCount = LlmConfig['outputTokens'];

export interface Workload {
  promptTokens: TokenCount;
  outputTokens: TokenCount;
  /** max_tokens of each request: the longest answer. */
  maxTokens: number;
}

/** The workload of one run, or of several together (calibrated.yaml: every file's requests). */
export function workloadOf(runs: readonly BenchRun[]): Workload {
  const detailed = runs.every((r) => r.detail !== undefined);
  if (detailed) {
    const ins = runs.flatMap((r) => r.detail!.inputLens);
    const outs = runs.flatMap((r) => r.detail!.outputLens).map((n) => Math.min(MAX_OUTPUT_TOKENS, n));
    return { promptTokens: countOf(ins), outputTokens: countOf(outs), maxTokens: Math.max(...outs) };
  }
  const weighted = (f: (r: BenchRun) => number): number => {
    let s = 0;
    let n = 0;
    for (const r of runs) {
      s += f(r) * r.completed;
      n += r.completed;
    }
    return s / n;
  };
  const out = Math.min(MAX_OUTPUT_TOKENS, Math.max(1, Math.round(weighted((r) => r.meanOutputTokens))));
  return { promptTokens: Math.max(1, Math.round(weighted((r) => r.meanInputTokens))), outputTokens: out, maxTokens: out };
}

/** Measured token counts as a spec: a whole number when all are equal, else empirical (at least 1 each; at most EMPIRICAL_POINTS, fit-duration.ts). */
function countOf(xs: number[]): TokenCount {
  const sorted = xs.map((x) => Math.max(1, Math.round(x))).sort((a, b) => a - b);
  if (sorted[0] === sorted[sorted.length - 1]) return sorted[0]!;
  // Quantiles of whole counts of at least 1 round to at least 1.
  return { dist: 'empirical', samplesMs: empiricalPoints(sorted) };
}
