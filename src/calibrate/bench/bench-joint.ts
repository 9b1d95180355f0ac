/**
 * The joint fit of an engine with a KV cache (Levenberg–Marquardt over the simulator): where the
 * cache binds, its size, the prefill and the per-sequence cost all move tokens/s, TTFT and the
 * token gap together; and the API server's front end and the prefill both make TTFT grow with the
 * requests arriving together, but only the prefill takes the GPU's time (the token gap, tokens/s).
 * So they are fitted together, not one at a time. The parameters (decodeMs and kvCacheTokens on a
 * log scale, perSequenceMs, prefillMsPerToken, overheadMs, frontEndMs) move by the
 * step that best lowers the squared log misses of every figure measured at every level (TTFT at
 * half weight: its tolerance is wider), each figure's slope taken from one more simulated run with
 * that parameter nudged. A step that does not lower the misses is damped and tried again.
 */
import type { EngineConfig } from '../../contract/llm-config.js';
import type { FitLevel, Predicted } from './bench-level.js';
import { wholeBlocks } from './bench-kv.js';

/** Rounds at most: each costs one simulated run of every level per parameter, and one per try. */
const ROUNDS = 4;

type Figure = 'itlP50' | 'tpotP50' | 'ttftP50' | 'e2elP50' | 'outputTokensPerS';
const WEIGHTS: Record<Figure, number> = { itlP50: 1, tpotP50: 1, ttftP50: 0.5, e2elP50: 1, outputTokensPerS: 1 };

/**
 * One parameter of the fit: read from an engine (on the scale the steps take), written back (kept
 * in its range), and the nudge that measures the figures' slopes in it.
 */
interface Param {
  get(e: EngineConfig): number;
  set(e: EngineConfig, x: number): EngineConfig;
  nudge(x: number, e: EngineConfig): number;
}

const PARAMS: Record<'decode' | 'perSequence' | 'prefill' | 'overhead' | 'frontEnd' | 'kv', Param> = {
  decode: { get: (e) => Math.log(e.decodeMs), set: (e, x) => ({ ...e, decodeMs: Math.max(1e-3, Math.exp(x)) }), nudge: () => 0.1 },
  perSequence: {
    get: (e) => e.perSequenceMs,
    set: (e, x) => ({ ...e, perSequenceMs: Math.max(0, x) }),
    nudge: (x, e) => Math.max(0.1 * x, 0.01 * e.decodeMs),
  },
  prefill: {
    get: (e) => e.prefillMsPerToken,
    set: (e, x) => ({ ...e, prefillMsPerToken: Math.max(0, x) }),
    nudge: (x, e) => Math.max(0.1 * x, 1e-3 * e.decodeMs),
  },
  overhead: { get: (e) => e.overheadMs, set: (e, x) => ({ ...e, overheadMs: Math.max(0, x) }), nudge: (x, e) => Math.max(0.1 * x, e.decodeMs) },
  frontEnd: { get: (e) => e.frontEndMs, set: (e, x) => ({ ...e, frontEndMs: Math.max(0, x) }), nudge: (x, e) => Math.max(0.1 * x, 0.2 * e.decodeMs) },
  kv: { get: (e) => Math.log(e.kvCacheTokens!), set: (e, x) => ({ ...e, kvCacheTokens: wholeBlocks(Math.exp(x)) }), nudge: () => 0.1 },
};

export type JointParam = keyof typeof PARAMS;

/** The weighted log misses of every figure measured at every level. */
function residuals(levels: readonly FitLevel[], sims: readonly Predicted[]): number[] {
  const r: number[] = [];
  levels.forEach((l, i) => {
    for (const k of Object.keys(WEIGHTS) as Figure[]) {
      // The token gap once: the figure the level's gap is fitted to.
      if ((k === 'itlP50' || k === 'tpotP50') && k !== l.gap) continue;
      const want = l.measured[k];
      if (want === undefined || want <= 0) continue;
      const got = sims[i]![k];
      r.push(WEIGHTS[k] * (got === undefined || got <= 0 ? 3 : Math.log(got / want)));
    }
  });
  return r;
}

const sumSq = (r: readonly number[]): number => r.reduce((a, x) => a + x * x, 0);

/** The engine with `names` fitted jointly from `start`: never worse on the squared misses than `start`. */
export async function jointFit(
  levels: readonly FitLevel[],
  start: EngineConfig,
  names: readonly JointParam[],
  run: (e: EngineConfig) => Promise<Predicted[]>,
): Promise<EngineConfig> {
  const ps = names.map((n) => PARAMS[n]);
  const apply = (e: EngineConfig, v: readonly number[]): EngineConfig => ps.reduce((acc, p, i) => p.set(acc, v[i]!), e);
  let engine = start;
  let v = ps.map((p) => p.get(engine));
  let r = residuals(levels, await run(engine));
  let lambda = 1e-2;
  for (let round = 0; round < ROUNDS; round++) {
    const cols: number[][] = [];
    for (let p = 0; p < ps.length; p++) {
      const h = ps[p]!.nudge(v[p]!, engine);
      const w = [...v];
      w[p]! += h;
      const rp = residuals(levels, await run(apply(engine, w)));
      cols.push(rp.map((x, i) => (x - r[i]!) / h));
    }
    let improved = false;
    for (let tries = 0; tries < 3 && !improved; tries++) {
      const step = solveDamped(cols, r, lambda);
      const e = apply(
        engine,
        v.map((x, p) => x + step[p]!),
      );
      const rw = residuals(levels, await run(e));
      if (sumSq(rw) < sumSq(r)) {
        engine = e;
        v = ps.map((p) => p.get(engine));
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
