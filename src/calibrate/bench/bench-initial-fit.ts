/**
 * The analytic first guess of the engine, from the bench figures alone; the simulator then
 * corrects it (bench-refine.ts).
 *
 * - ITL: in a closed loop of C users one worker decodes C sequences in most iterations, each of
 *   `decodeMs + perSequenceMs × (C − 1)`: a line through the ITL medians against C − 1.
 * - TTFT: a request waits for its joining iteration (about half an iteration when others run),
 *   after `overheadMs`, and that iteration prefills its prompt (`prefillMsPerToken` a token).
 *   With --save-detailed arrays and prompts of several lengths, TTFT against prompt length at the
 *   lowest concurrency separates them: the slope is `prefillMsPerToken`, and fixed from there.
 *   Otherwise, with two concurrency levels or more, the rise of TTFT with C does: the C prompts of
 *   a closed loop's round arrive together and are prefilled in the same iterations. With one
 *   level of summaries only nothing separates them: all goes to `overheadMs`, prefill 0.
 */
import { meanMs } from '../../contract/duration-spec.js';
import type { EngineConfig } from '../../contract/llm-config.js';
import { type FitLevel, measuredGap } from './bench-level.js';
import { sequencesIn, unbound } from './bench-kv.js';
import { weightedLineNonNegative } from './weighted-line.js';

/**
 * `vllm serve`'s defaults on a GPU under 70 GiB, or an A100 (V1 engine); on larger ones (H100,
 * H200, MI300X) they are 1024 and 8192. Bench files record neither: `loadlab calibrate` takes
 * the server's own with --max-num-seqs and --max-num-batched-tokens.
 */
export const VLLM_MAX_NUM_SEQS = 256;
export const VLLM_MAX_NUM_BATCHED_TOKENS = 2048;

/** How prefillMsPerToken was found. */
export type PrefillSource = 'input-length' | 'concurrency' | 'none';

export interface InitialFit {
  engine: EngineConfig;
  prefillFrom: PrefillSource;
}

/** Fewest requests, and least spread of prompt lengths (coefficient of variation), for a TTFT-against-length slope. */
const MIN_DETAIL = 10;
const MIN_SPREAD = 0.05;

/** Sequences decoding together at a level's users: at most maxNumSeqs, and with a KV cache what it holds. */
export const batchOf = (l: FitLevel, maxNumSeqs: number, kvCacheTokens: number | undefined): number =>
  Math.min(l.users, maxNumSeqs, kvCacheTokens === undefined ? Infinity : sequencesIn(kvCacheTokens, l));

export function initialFit(
  levels: readonly FitLevel[],
  maxNumSeqs = VLLM_MAX_NUM_SEQS,
  maxNumBatchedTokens = VLLM_MAX_NUM_BATCHED_TOKENS,
  kvCacheTokens?: number,
): InitialFit {
  const xs = levels.map((l) => batchOf(l, maxNumSeqs, kvCacheTokens) - 1);
  const itl = levels.map(measuredGap);
  const line = weightedLineNonNegative(
    xs,
    itl,
    itl.map((y) => 1 / (y * y)),
  );
  const decodeMs = Math.max(1e-3, line.a);
  const perSequenceMs = line.b;
  const iteration = (l: FitLevel): number => decodeMs + perSequenceMs * (batchOf(l, maxNumSeqs, kvCacheTokens) - 1);
  // Half an iteration's wait to join one under way, when others are decoding.
  const joinWait = (l: FitLevel): number => (l.users > 1 ? iteration(l) / 2 : 0);
  const base = {
    decodeMs,
    perSequenceMs,
    maxNumSeqs,
    maxNumBatchedTokens,
    frontEndMs: 0,
    apiServerCount: 1,
    ...(kvCacheTokens !== undefined ? { kvCacheTokens } : {}),
  };

  const slope = detailSlope(levels);
  if (slope) {
    const l = slope.level;
    const overheadMs = Math.max(0, slope.intercept - iteration(l) - joinWait(l));
    return { engine: { ...base, prefillMsPerToken: slope.prefill, overheadMs }, prefillFrom: 'input-length' };
  }
  // Where the cache binds, TTFT is mostly the wait for room in it: the prefill and overhead come from the others.
  const free = unbound(levels, kvCacheTokens);
  const sorted = [...(free.length > 0 ? free : levels)].sort((a, b) => a.users - b.users);
  const lo = sorted[0]!;
  const hi = sorted[sorted.length - 1]!;
  const excess = (l: FitLevel): number => l.measured.ttftP50! - iteration(l) - joinWait(l);
  if (hi.users > lo.users) {
    // A round's C prompts are prefilled together: the first token waits for about C × p prompt tokens.
    const tokens = (l: FitLevel): number => l.users * meanMs(l.workload.promptTokens);
    const prefill = Math.max(0, (excess(hi) - excess(lo)) / Math.max(1, tokens(hi) - tokens(lo)));
    const overheadMs = Math.max(0, excess(lo) - prefill * tokens(lo));
    return { engine: { ...base, prefillMsPerToken: prefill, overheadMs }, prefillFrom: 'concurrency' };
  }
  return { engine: { ...base, prefillMsPerToken: 0, overheadMs: Math.max(0, excess(lo)) }, prefillFrom: 'none' };
}

/** TTFT against prompt length at the lowest concurrency whose detailed prompts vary enough. */
function detailSlope(levels: readonly FitLevel[]): { level: FitLevel; prefill: number; intercept: number } | undefined {
  const usable = levels
    .filter((l) => {
      const d = l.run.detail;
      if (!d || d.inputLens.length < MIN_DETAIL) return false;
      const m = d.inputLens.reduce((a, b) => a + b, 0) / d.inputLens.length;
      const sd = Math.sqrt(d.inputLens.reduce((a, b) => a + (b - m) ** 2, 0) / d.inputLens.length);
      return m > 0 && sd / m >= MIN_SPREAD;
    })
    .sort((a, b) => a.users - b.users);
  const level = usable[0];
  if (!level) return undefined;
  const d = level.run.detail!;
  // A slope below 0 becomes 0, and the intercept the mean TTFT.
  const line = weightedLineNonNegative(
    d.inputLens,
    d.ttftsMs,
    d.inputLens.map(() => 1),
  );
  return { level, prefill: line.b, intercept: line.a };
}
