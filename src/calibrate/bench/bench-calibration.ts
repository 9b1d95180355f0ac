/**
 * `loadlab calibrate FILE.json…` from vllm bench serve results: the batching engine of one LLM
 * worker fitted to the files' ITL and TTFT medians (bench-initial-fit.ts, then bench-refine.ts
 * against the simulator), and, per file, what the simulator predicts for its run against what it
 * measured, so the user sees how far to trust the fit. calibration.json holds this object.
 */
import type { EngineConfig } from '../../contract/llm-config.js';
import type { ScenarioInput } from '../../load/scenario/schema.js';
import { type BenchRun, type BenchSource, runName } from './bench-file.js';
import { FIGURES, type LevelFigures } from './bench-metrics.js';
import { type FitLevel, levelOf, type Predicted, PREDICT_SIZE, predictLevel, REFINE_SIZE } from './bench-level.js';
import { type InitialFit, initialFit, type PrefillSource } from './bench-initial-fit.js';
import { type Refined, refine, worstMiss } from './bench-refine.js';
import { binds, firstGuess, plateaued } from './bench-kv.js';
import { type JointParam, jointFit } from './bench-joint.js';
import { benchScenarioInput } from './bench-scenario.js';
import { type TokenCount, workloadOf } from './bench-workload.js';

export const BENCH_CALIBRATION_VERSION = 1;
/** Most jobs one worker holds (endpoint.workerConcurrency's bound). */
const MAX_WORKER_CONCURRENCY = 1024;

/** A figure measured and predicted; `error` = predicted / measured − 1. */
export interface FigureRow {
  measured?: number;
  predicted?: number;
  error?: number;
}

export interface BenchLevelResult {
  file: string;
  concurrency: number;
  model?: string;
  completed: number;
  /** Requests of the simulated run behind `figures`. */
  simulatedRequests: number;
  figures: Record<keyof LevelFigures, FigureRow>;
}

export interface BenchCalibration {
  version: number;
  kind: 'vllm-bench';
  /** The tools that wrote the files. */
  sources: BenchSource[];
  files: string[];
  endpoint: {
    workersMin: 1;
    workersMax: 1;
    workerConcurrency: number;
    engine: EngineConfig;
    outputTokens: TokenCount;
    promptTokens: TokenCount;
    maxTokens: number;
  };
  fit: { prefillFrom: PrefillSource; initial: EngineConfig; rounds: number; miss: number; kvCache: KvCacheFit; notes: string[] };
  levels: BenchLevelResult[];
}

/** The server's batch limits (vLLM --max-num-seqs, --max-num-batched-tokens) and KV cache size: bench files do not record them. */
export interface ServerLimits {
  maxNumSeqs?: number;
  maxNumBatchedTokens?: number;
  /** vLLM's "GPU KV cache size: N tokens" (`--kv-cache-tokens`): taken as is, not fitted. */
  kvCacheTokens?: number;
}

/**
 * What the fit knows of the KV cache: `given` (--kv-cache-tokens), `fitted` (the sweep reached
 * its limit: the sequences running stopped growing with the users), or `not-reached` (no level
 * showed a limit: the size is unknown beyond `maxConcurrency`, and the engine has none).
 */
export interface KvCacheFit {
  status: 'given' | 'fitted' | 'not-reached';
  tokens?: number;
  /** The sweep's largest concurrency: what the fit saw. */
  maxConcurrency: number;
}

/** A fit with a cache must lower the worst miss by this share to be taken over one without. */
const KV_BETTER = 0.8;
/** The joint fit must lower the worst miss by this share to replace the rounds' engine. */
const JOINT_BETTER = 0.9;
/** The rounds' engine within this of every figure (the figures' tolerance; sampling noise alone misses by ~5 %) needs no joint fit. */
const JOINT_NEEDED = 0.1;

export async function calibrateBench(
  files: readonly BenchRun[],
  server: ServerLimits = {},
): Promise<{ calibration: BenchCalibration; scenario: ScenarioInput }> {
  const runs = [...files].sort((a, b) => a.concurrency - b.concurrency);
  const levels = runs.map(levelOf);
  const workerConcurrency = Math.min(MAX_WORKER_CONCURRENCY, Math.max(...levels.map((l) => l.users)));
  const { first, refined, kvCache } = await fitEngine(levels, server, workerConcurrency);
  const engine = rounded(refined.engine);
  const ep = { engine, workerConcurrency };
  const results: BenchLevelResult[] = [];
  for (const l of levels) results.push(levelResult(l, await predictLevel(ep, l, PREDICT_SIZE)));

  const w = workloadOf(runs);
  const top = levels.reduce((a, b) => (b.users > a.users ? b : a));
  const durationMs = Math.max(60_000, Math.ceil((20 * top.cycleMs) / 10_000) * 10_000);
  const scenario: ScenarioInput = {
    ...benchScenarioInput(ep, w, top.users, { durationMs, drainMs: Math.ceil(10 * top.cycleMs) + 60_000 }),
    plan: { calibratedUpTo: { concurrency: kvCache.maxConcurrency, kvCache: kvCache.status } },
  };
  return {
    calibration: {
      version: BENCH_CALIBRATION_VERSION,
      kind: 'vllm-bench',
      sources: [...new Set(runs.map((r) => r.source))],
      files: runs.map(runName),
      endpoint: { workersMin: 1, workersMax: 1, workerConcurrency, engine, ...w },
      fit: {
        prefillFrom: first.prefillFrom,
        initial: rounded(first.engine),
        rounds: refined.rounds,
        miss: round(refined.miss, 4),
        kvCache,
        notes: notesOf(runs, levels, engine, first.prefillFrom, kvCache),
      },
      levels: results,
    },
    scenario,
  };
}

/**
 * The engine, with the KV cache given, or fitted when the sweep shows a limit on the sequences
 * running and a cache explains it clearly better than none (bench-kv.ts), else without one.
 */
async function fitEngine(levels: readonly FitLevel[], server: ServerLimits, workerConcurrency: number) {
  const maxConcurrency = Math.max(...levels.map((l) => l.users));
  const run = async (e: EngineConfig): Promise<Predicted[]> => {
    const out: Predicted[] = [];
    for (const l of levels) out.push(await predictLevel({ engine: e, workerConcurrency }, l, REFINE_SIZE));
    return out;
  };
  /** The refined engine, then its parameters fitted jointly (bench-joint.ts), kept when that lowers the worst miss. */
  const polish = async (r: Refined, names: JointParam[]): Promise<Refined> => {
    const before = worstMiss(levels, await run(r.engine), true);
    // More figures than parameters (three levels at least), and something left to explain.
    if (levels.length < 3 || before <= JOINT_NEEDED) return { ...r, miss: before };
    const joint = await jointFit(levels, r.engine, names, run);
    const after = worstMiss(levels, await run(joint), true);
    // By a margin: a smaller gain is the runs' noise, and the rounds' engine is the simpler one.
    return after < JOINT_BETTER * before ? { ...r, engine: joint, miss: after } : { ...r, miss: before };
  };
  // The prefill measured from TTFT against prompt length stays as measured.
  const params = (f: InitialFit): JointParam[] =>
    f.prefillFrom === 'input-length' ? ['decode', 'perSequence', 'overhead', 'frontEnd'] : ['decode', 'perSequence', 'prefill', 'overhead', 'frontEnd'];
  if (server.kvCacheTokens !== undefined) {
    const first = initialFit(levels, server.maxNumSeqs, server.maxNumBatchedTokens, server.kvCacheTokens);
    const refined = await polish(await refine(levels, first.engine, workerConcurrency, first.prefillFrom), params(first));
    return { first, refined, kvCache: { status: 'given', tokens: server.kvCacheTokens, maxConcurrency } satisfies KvCacheFit };
  }
  const first = initialFit(levels, server.maxNumSeqs, server.maxNumBatchedTokens);
  const refined = await polish(await refine(levels, first.engine, workerConcurrency, first.prefillFrom), params(first));
  const notReached = { first, refined, kvCache: { status: 'not-reached', maxConcurrency } satisfies KvCacheFit };
  if (!plateaued(levels)) return notReached;
  const withKv = initialFit(levels, server.maxNumSeqs, server.maxNumBatchedTokens, firstGuess(levels));
  const kvRefined = await polish(await refine(levels, withKv.engine, workerConcurrency, withKv.prefillFrom, true), [...params(withKv), 'kv']);
  const k = kvRefined.engine.kvCacheTokens!;
  if (!binds(k, levels) || kvRefined.miss > KV_BETTER * refined.miss) return notReached;
  return { first: withKv, refined: kvRefined, kvCache: { status: 'fitted', tokens: k, maxConcurrency } satisfies KvCacheFit };
}

function levelResult(l: FitLevel, p: LevelFigures & { requests: number }): BenchLevelResult {
  const figures = {} as Record<keyof LevelFigures, FigureRow>;
  for (const k of FIGURES) {
    const measured = l.measured[k];
    const predicted = p[k];
    figures[k] = {
      ...(measured !== undefined ? { measured: round(measured, 3) } : {}),
      ...(predicted !== undefined ? { predicted: round(predicted, 3) } : {}),
      ...(measured !== undefined && predicted !== undefined && measured > 0 ? { error: round(predicted / measured - 1, 4) } : {}),
    };
  }
  return {
    file: runName(l.run),
    concurrency: l.users,
    ...(l.run.modelId !== undefined ? { model: l.run.modelId } : {}),
    completed: l.run.completed,
    simulatedRequests: p.requests,
    figures,
  };
}

/** What the reader should know about how the fit was made. */
function notesOf(runs: readonly BenchRun[], levels: readonly FitLevel[], e: EngineConfig, prefillFrom: PrefillSource, kv: KvCacheFit): string[] {
  const notes: string[] = [];
  if (kv.status === 'fitted')
    notes.push(
      `the sweep reached the KV cache's limit (the sequences running stopped growing with the users): kvCacheTokens ${kv.tokens} is fitted to its tokens/s there; vLLM's startup line "GPU KV cache size" gives the real one (--kv-cache-tokens)`,
    );
  if (kv.status === 'not-reached')
    notes.push(
      `the sweep never reached the KV cache's limit (the sequences running grew with the users up to ${kv.maxConcurrency}): the cache's size is unknown, the engine has none, and predictions beyond ${kv.maxConcurrency} in flight per worker are extrapolated (give --kv-cache-tokens from vLLM's "GPU KV cache size" line)`,
    );
  if (prefillFrom === 'input-length')
    notes.push(
      'prefillMsPerToken is the slope of TTFT against prompt length (--save-detailed arrays) at the lowest concurrency with prompts of several lengths',
    );
  if (prefillFrom === 'concurrency')
    notes.push(
      'prefillMsPerToken and overheadMs are separated by the rise of TTFT with concurrency (summaries only: --save-detailed with prompts of several lengths measures the prefill directly)',
    );
  if (prefillFrom === 'none')
    notes.push(
      'one concurrency level of summaries: TTFT beyond one iteration is all in overheadMs, prefillMsPerToken is 0 (give several --max-concurrency levels)',
    );
  if (new Set(levels.map((l) => l.users)).size === 1) notes.push('one concurrency level: perSequenceMs is 0 (give several --max-concurrency levels)');
  if (runs.some((r) => !r.detail)) notes.push("prompt and answer lengths are the files' means, as constants (--save-detailed gives their distributions)");
  const models = new Set(runs.map((r) => r.modelId).filter(Boolean));
  if (models.size > 1) notes.push(`the files name ${models.size} models (${[...models].join(', ')}): one engine is fitted to all`);
  if (levels.some((l) => l.users > e.maxNumSeqs)) notes.push(`a concurrency above maxNumSeqs (${e.maxNumSeqs}): the rest wait inside the worker, as in vLLM`);
  return notes;
}

/** The engine as calibrated.yaml writes it: 4 significant digits, which the predictions then use. */
function rounded(e: EngineConfig): EngineConfig {
  return {
    ...e,
    decodeMs: sig4(e.decodeMs),
    perSequenceMs: sig4(e.perSequenceMs),
    prefillMsPerToken: sig4(e.prefillMsPerToken),
    overheadMs: sig4(e.overheadMs),
    frontEndMs: sig4(e.frontEndMs),
  };
}

const sig4 = (x: number): number => (x === 0 ? 0 : Number(x.toPrecision(4)));
const round = (x: number, digits: number): number => Math.round(x * 10 ** digits) / 10 ** digits;
