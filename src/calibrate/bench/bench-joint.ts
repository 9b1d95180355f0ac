/**
 * The joint fit of an engine with a KV cache (Levenberg–Marquardt over the simulator): where the
 * cache binds, its size, the prefill and the per-sequence cost all move tokens/s, TTFT and the
 * token gap together, so they are fitted together, not one at a time. The parameters (decodeMs
 * and kvCacheTokens on a log scale, perSequenceMs, prefillMsPerToken, overheadMs) move by the
 * step that best lowers the squared log misses of every figure measured at every level (TTFT at
 * half weight: its tolerance is wider), each figure's slope taken from one more simulated run with
 * that parameter nudged. A step that does not lower the misses is damped and tried again.
 */
import type { EngineConfig } from '../../contract/llm-config.js';
import type { FitLevel, Predicted } from './bench-level.js';
import { wholeBlocks } from './bench-kv.js';

/** Rounds at most: each costs one simulated run of every level per parameter, and one per try. */
const ROUNDS = 4;
const PARAMS = 5;

type Figure = 'itlP50' | 'tpotP50' | 'ttftP50' | 'e2elP50' | 'outputTokensPerS';
const WEIGHTS: Record<Figure, number> = { itlP50: 1, tpotP50: 1, ttftP50: 0.5, e2elP50: 1, outputTokensPerS: 1 };

/** The parameters as a vector; `toEngine` turns one back. */
function toVector(e: EngineConfig): number[] {
  return [Math.log(e.decodeMs), e.perSequenceMs, e.prefillMsPerToken, e.overheadMs, Math.log(e.kvCacheTokens!)];
}

function toEngine(base: EngineConfig, v: readonly number[]): EngineConfig {
  return {
    ...base,
    decodeMs: Math.max(1e-3, Math.exp(v[0]!)),
    perSequenceMs: Math.max(0, v[1]!),
    prefillMsPerToken: Math.max(0, v[2]!),
    overheadMs: Math.max(0, v[3]!),
    kvCacheTokens: wholeBlocks(Math.exp(v[4]!)),
  };
}

/** The nudge of each parameter for its slope: a tenth, with a floor where the value may be 0. */
function nudges(v: readonly number[], e: EngineConfig): number[] {
  return [0.1, Math.max(0.1 * v[1]!, 0.01 * e.decodeMs), Math.max(0.1 * v[2]!, 1e-3 * e.decodeMs), Math.max(0.1 * v[3]!, e.decodeMs), 0.1];
}

/** The weighted log misses of every figure measured at every level. */
function residuals(levels: readonly FitLevel[], sims: readonly Predicted[]): number[] {
  const r: number[] = [];
  levels.forEach((l, i) => {
    for (const k of Object.keys(WEIGHTS) as Figure[]) {
      const want = l.measured[k];
      if (want === undefined || want <= 0) continue;
      const got = sims[i]![k];
      r.push(WEIGHTS[k] * (got === undefined || got <= 0 ? 3 : Math.log(got / want)));
    }
  });
  return r;
}

const sumSq = (r: readonly number[]): number => r.reduce((a, x) => a + x * x, 0);

export async function jointFit(levels: readonly FitLevel[], start: EngineConfig, run: (e: EngineConfig) => Promise<Predicted[]>): Promise<EngineConfig> {
  let v = toVector(start);
  let engine = start;
  let r = residuals(levels, await run(engine));
  let lambda = 1e-2;
  for (let round = 0; round < ROUNDS; round++) {
    const h = nudges(v, engine);
    const cols: number[][] = [];
    for (let p = 0; p < PARAMS; p++) {
      const w = [...v];
      w[p]! += h[p]!;
      const rp = residuals(levels, await run(toEngine(engine, w)));
      cols.push(rp.map((x, i) => (x - r[i]!) / h[p]!));
    }
    let improved = false;
    for (let tries = 0; tries < 3 && !improved; tries++) {
      const step = solveDamped(cols, r, lambda);
      const w = v.map((x, p) => x + step[p]!);
      const e = toEngine(engine, w);
      const rw = residuals(levels, await run(e));
      if (sumSq(rw) < sumSq(r)) {
        v = toVector(e);
        engine = e;
        r = rw;
        lambda = Math.max(1e-4, lambda / 3);
        improved = true;
      } else lambda *= 10;
    }
    if (!improved) break;
  }
  return engine;
}

/** (JᵀJ + λ·diag(JᵀJ)) δ = −Jᵀr for the columns of J, by Gaussian elimination (5 unknowns). */
function solveDamped(cols: readonly number[][], r: readonly number[], lambda: number): number[] {
  const n = cols.length;
  const a: number[][] = [];
  for (let i = 0; i < n; i++) {
    const row: number[] = [];
    for (let j = 0; j < n; j++) row.push(dot(cols[i]!, cols[j]!));
    row[i]! += lambda * (row[i]! || 1);
    row.push(-dot(cols[i]!, r));
    a.push(row);
  }
  for (let c = 0; c < n; c++) {
    let piv = c;
    for (let i = c + 1; i < n; i++) if (Math.abs(a[i]![c]!) > Math.abs(a[piv]![c]!)) piv = i;
    [a[c], a[piv]] = [a[piv]!, a[c]!];
    const d = a[c]![c]!;
    if (Math.abs(d) < 1e-12) continue;
    for (let i = 0; i < n; i++) {
      if (i === c) continue;
      const f = a[i]![c]! / d;
      for (let j = c; j <= n; j++) a[i]![j]! -= f * a[c]![j]!;
    }
  }
  return a.map((row, i) => (Math.abs(row[i]!) < 1e-12 ? 0 : row[n]! / row[i]!));
}

const dot = (x: readonly number[], y: readonly number[]): number => x.reduce((s, xi, i) => s + xi * y[i]!, 0);
