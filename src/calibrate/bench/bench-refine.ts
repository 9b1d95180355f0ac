/**
 * The first guess corrected against the simulator itself, a few rounds: each round runs every
 * level with the current engine and moves the parameters by what the simulated ITL and TTFT
 * medians missed. The analytic model leaves out what the simulator does: rounds of a closed loop
 * prefilled together, chunked prefill past the token budget, iterations that decode and prefill at
 * once, the whole-ms clock of joins. The prediction is the simulator run, so the fit is too.
 *
 * - decodeMs, perSequenceMs: each level's ITL miss is added to the line's value there, and the
 *   line fitted again (an iteration's time moves one for one with decodeMs, and with C − 1 times
 *   perSequenceMs).
 * - overheadMs, prefillMsPerToken: TTFT moves one for one with overheadMs; how it moves with
 *   prefillMsPerToken is measured at each level by a second run with more of it (the prompt
 *   tokens the first token waits for). Both by weighted least squares over the levels; with the
 *   prefill fixed from TTFT against prompt length, or one level only, overheadMs alone.
 *
 * - kvCacheTokens (`fitKv`): moved by the tokens/s missed where the cache binds (bench-kv.ts);
 *   those levels' TTFT, mostly the wait for room in the cache, is left out of the TTFT step.
 *
 * Every level weighs by its relative error. The best engine seen is kept.
 */
import type { EngineConfig } from '../../contract/llm-config.js';
import type { BenchEndpoint } from './bench-scenario.js';
import { batchOf, type PrefillSource } from './bench-initial-fit.js';
import { kvStep, unbound } from './bench-kv.js';
import { type FitLevel, measuredGap, type Predicted, predictLevel, REFINE_SIZE } from './bench-level.js';
import { weightedLine, weightedLineNonNegative } from './weighted-line.js';

/** Rounds at most, and the miss (relative, on every ITL and TTFT median) that ends them early. */
export const MAX_ROUNDS = 8;
export const GOOD_ENOUGH = 0.01;
/** Two rounds that do not lower the miss by this much end the rounds: what is left is noise (prompts drawn at random). */
const STALLED = 0.001;

export interface Refined {
  engine: EngineConfig;
  /** Rounds run, and the largest relative miss of the engine kept. */
  rounds: number;
  miss: number;
}

export async function refine(
  levels: readonly FitLevel[],
  first: EngineConfig,
  workerConcurrency: number,
  prefillFrom: PrefillSource,
  fitKv = false,
): Promise<Refined> {
  let engine = first;
  let best: Omit<Refined, 'rounds'> | undefined;
  let rounds = 0;
  let bestRound = 0;
  const fitPrefill = prefillFrom === 'concurrency';
  const run = (e: EngineConfig): Promise<Predicted[]> => predictAll({ engine: e, workerConcurrency }, levels);
  for (let round = 1; round <= MAX_ROUNDS; round++) {
    const sims = await run(engine);
    rounds = round;
    const miss = worstMiss(levels, sims, fitKv);
    if (!best || miss < best.miss - STALLED) {
      best = { engine, miss };
      bestRound = round;
    }
    if (miss <= GOOD_ENOUGH || round === MAX_ROUNDS || round - bestRound >= 2) break;
    const next = { ...engine, ...itlStep(levels, sims, engine) };
    // TTFT from the levels where every request fits in the cache (at least two to separate the prefill).
    const free = fitKv ? [...levels] : unbound(levels, engine.kvCacheTokens);
    const freeSims = free.map((l) => sims[levels.indexOf(l)]!);
    const ttft =
      free.length === 0
        ? {}
        : fitPrefill && free.length >= 2
          ? await ttftStep(free, freeSims, engine, async (e) => {
              const all = await run(e);
              return free.map((l) => all[levels.indexOf(l)]!);
            })
          : overheadStep(free, freeSims, engine);
    engine = { ...next, ...ttft };
    if (fitKv && engine.kvCacheTokens !== undefined) engine = { ...engine, kvCacheTokens: kvStep(levels, sims, engine.kvCacheTokens) };
  }
  return { ...best!, rounds };
}

async function predictAll(ep: BenchEndpoint, levels: readonly FitLevel[]): Promise<Predicted[]> {
  const out: Predicted[] = [];
  for (const l of levels) out.push(await predictLevel(ep, l, REFINE_SIZE));
  return out;
}

const rel = (sim: number | undefined, want: number): number => (sim === undefined ? Infinity : Math.abs(sim / want - 1));

/** The largest relative miss of ITL and TTFT medians, and with `tokensPerS` (fitting the cache) of output tokens/s. */
export function worstMiss(levels: readonly FitLevel[], sims: readonly Predicted[], tokensPerS: boolean): number {
  let m = 0;
  levels.forEach((l, i) => {
    m = Math.max(m, rel(sims[i]![l.gap], measuredGap(l)), rel(sims[i]!.ttftP50, l.measured.ttftP50!));
    const tps = l.measured.outputTokensPerS;
    if (tokensPerS && tps !== undefined) m = Math.max(m, rel(sims[i]!.outputTokensPerS, tps));
  });
  return m;
}

function itlStep(levels: readonly FitLevel[], sims: readonly Predicted[], e: EngineConfig): Pick<EngineConfig, 'decodeMs' | 'perSequenceMs'> {
  const xs = levels.map((l) => batchOf(l, e.maxNumSeqs, e.kvCacheTokens) - 1);
  const ys = levels.map((l, i) => e.decodeMs + e.perSequenceMs * xs[i]! + measuredGap(l) - (sims[i]![l.gap] ?? 0));
  const line = weightedLineNonNegative(
    xs,
    ys,
    levels.map((l) => 1 / measuredGap(l) ** 2),
  );
  return { decodeMs: Math.max(1e-3, line.a), perSequenceMs: line.b };
}

/** overheadMs alone: the weighted mean TTFT miss. */
function overheadStep(levels: readonly FitLevel[], sims: readonly Predicted[], e: EngineConfig): Pick<EngineConfig, 'overheadMs'> {
  let s = 0;
  let w = 0;
  levels.forEach((l, i) => {
    const want = l.measured.ttftP50!;
    s += (want - (sims[i]!.ttftP50 ?? want)) / want ** 2;
    w += 1 / want ** 2;
  });
  return { overheadMs: Math.max(0, e.overheadMs + s / w) };
}

/** overheadMs and prefillMsPerToken: TTFT miss ≈ Δoverhead + Δprefill × (TTFT's slope in prefill at that level). */
async function ttftStep(
  levels: readonly FitLevel[],
  sims: readonly Predicted[],
  e: EngineConfig,
  run: (e: EngineConfig) => Promise<Predicted[]>,
): Promise<Pick<EngineConfig, 'overheadMs' | 'prefillMsPerToken'>> {
  // A step large enough to move TTFT by whole iterations' worth, small enough to stay local (ms/token).
  const step = Math.max(0.5 * e.prefillMsPerToken, 0.002);
  const more = await run({ ...e, prefillMsPerToken: e.prefillMsPerToken + step });
  const slope = levels.map((_, i) => ((more[i]!.ttftP50 ?? 0) - (sims[i]!.ttftP50 ?? 0)) / step);
  const miss = levels.map((l, i) => l.measured.ttftP50! - (sims[i]!.ttftP50 ?? 0));
  const line = weightedLine(
    slope,
    miss,
    levels.map((l) => 1 / l.measured.ttftP50! ** 2),
  );
  // Δprefill is the line's slope in `slope`; its value at slope 0 is Δoverhead. A prefill that
  // would go below 0 stops at 0, and the overhead takes what is left of the miss (unclamped, this
  // is the line's own value at slope 0: a weighted least-squares line passes through the means).
  const prefill = Math.max(0, e.prefillMsPerToken + line.b);
  const dp = prefill - e.prefillMsPerToken;
  let left = 0;
  let w = 0;
  levels.forEach((l, i) => {
    const wi = 1 / l.measured.ttftP50! ** 2;
    left += wi * (miss[i]! - dp * slope[i]!);
    w += wi;
  });
  const overhead = Math.max(0, e.overheadMs + left / w);
  return { overheadMs: overhead, prefillMsPerToken: prefill };
}
