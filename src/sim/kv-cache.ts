/**
 * The KV cache of a batching engine (llm-engine.ts, `llm.engine.kvCacheTokens`): blocks of 16
 * tokens. A sequence holds blocks for the tokens it (re)prefilled when it joined (`fill`) from the
 * moment it joins, and while decoding one more token's worth each iteration: in iteration `i` of
 * its current piece it holds `blocks(fill + i − firstIter)` (the token made by the previous
 * iteration is fed in this one). The engine checks the cache at each change of the batch and, in
 * between, finds arithmetically the iteration in which the decoding sequences outgrow it.
 */
import { KV_BLOCK_TOKENS } from '../contract/llm-config.js';
import type { EngineSeq } from './engine-seq.js';

export const blocksOf = (tokens: number): number => Math.ceil(tokens / KV_BLOCK_TOKENS);

/** Blocks `s` holds during global iteration `iter` (it is in the batch then). */
export function blocksAt(s: EngineSeq, iter: number): number {
  return s.firstIter < 0 ? blocksOf(s.fill) : blocksOf(s.fill + iter - s.firstIter);
}

/** Sequences by the offset (1…16) of their next new block; reused: the core is single-threaded. */
const byOffset = new Int32Array(KV_BLOCK_TOKENS + 1);

/**
 * The first iteration after `iter` in which the blocks of `running` exceed `free` more than they
 * hold at `iter` (Infinity: never while the batch stays as it is). Each decoding sequence takes a
 * new block every 16 iterations, from the offset where its context next crosses a block: the
 * (free + 1)-th new block overall overflows.
 */
export function overflowAfter(running: readonly EngineSeq[], iter: number, free: number): number {
  byOffset.fill(0);
  let n = 0;
  for (const s of running) {
    if (s.firstIter < 0) continue;
    const r = (s.fill + iter - s.firstIter) % KV_BLOCK_TOKENS;
    byOffset[r === 0 ? 1 : KV_BLOCK_TOKENS + 1 - r]!++;
    n++;
  }
  if (n === 0) return Infinity;
  const rounds = Math.floor(free / n);
  const m = free % n;
  let seen = 0;
  for (let o = 1; o <= KV_BLOCK_TOKENS; o++) {
    seen += byOffset[o]!;
    if (seen > m) return iter + KV_BLOCK_TOKENS * rounds + o;
  }
  return Infinity;
}
