/**
 * One bench file as a point of the fit: its concurrency (the closed loop's users), its own
 * prompt and answer lengths, what it measured, and the simulator's prediction for it: the fitted
 * endpoint run in process at that concurrency with those lengths, long enough for stable medians.
 */
import { meanMs } from '../../contract/duration-spec.js';
import type { BenchRun } from './bench-file.js';
import { figuresOf, type LevelFigures } from './bench-metrics.js';
import { type BenchEndpoint, benchScenario, type RunLength } from './bench-scenario.js';
import { simulateStreams } from './bench-simulate.js';
import { type Workload, workloadOf } from './bench-workload.js';

export interface FitLevel {
  run: BenchRun;
  users: number;
  workload: Workload;
  measured: LevelFigures;
  /** A request's expected time from send to last token (ms): sizes the simulated run. */
  cycleMs: number;
  /**
   * The figure the token gap is fitted to: vLLM's ITL median (the gaps between tokens, pooled), or
   * where a file gives no ITL, or its tool's "ITL" is per request (GuideLLM, GenAI-Perf), TPOT's.
   */
  gap: 'itlP50' | 'tpotP50';
}

/** The measured token gap of a level (its `gap` figure). */
export const measuredGap = (l: FitLevel): number => l.measured[l.gap]!;

export type Predicted = LevelFigures & { requests: number };

export function levelOf(run: BenchRun): FitLevel {
  const m = run.metrics;
  const measured: LevelFigures = {
    ttftP50: m.ttft.median,
    ttftP99: m.ttft.percentiles['99'],
    itlP50: m.itl.median,
    tpotP50: m.tpot.median,
    e2elP50: m.e2el.median,
    outputTokensPerS: run.outputThroughput,
  };
  const gap = (run.source === 'vllm' && m.itl.median !== undefined) || m.tpot.median === undefined ? 'itlP50' : 'tpotP50';
  const cycleMs = m.e2el.median ?? m.ttft.median! + Math.max(0, run.meanOutputTokens - 1) * measured[gap]!;
  return { run, users: run.concurrency, workload: workloadOf([run]), measured, cycleMs: Math.max(1, cycleMs), gap };
}

/**
 * Requests a simulated level sends: at least `rounds` per user (a closed loop's requests come in
 * rounds of `users`) and `least` in all, but no more than `tokenBudget` output tokens (the
 * simulator streams each token as an event), and never under two rounds.
 */
export interface RunSize {
  least: number;
  rounds: number;
  tokenBudget: number;
}

/** For the rounds of the fit: quick. */
export const REFINE_SIZE: RunSize = { least: 64, rounds: 8, tokenBudget: 100_000 };
/** For the predictions calibration.md shows. */
export const PREDICT_SIZE: RunSize = { least: 200, rounds: 16, tokenBudget: 400_000 };

export function requestsFor(l: FitLevel, size: RunSize): number {
  const want = Math.max(size.least, size.rounds * l.users);
  const affordable = Math.floor(size.tokenBudget / Math.max(1, meanMs(l.workload.outputTokens)));
  return Math.max(2 * l.users, Math.min(want, affordable));
}

/** A closed loop sending about `requests` requests: each user starts one per cycle until durationMs. */
export function runLength(l: FitLevel, requests: number): RunLength {
  const rounds = Math.max(1, Math.ceil(requests / l.users));
  return { durationMs: Math.max(1, Math.ceil((rounds - 0.5) * l.cycleMs)), drainMs: Math.ceil(10 * l.cycleMs) + 60_000 };
}

/** The simulator's figures for this level with the endpoint `ep`. */
export async function predictLevel(ep: BenchEndpoint, l: FitLevel, size: RunSize): Promise<Predicted> {
  const sc = benchScenario(ep, l.workload, l.users, runLength(l, requestsFor(l, size)));
  return figuresOf(await simulateStreams(sc));
}
