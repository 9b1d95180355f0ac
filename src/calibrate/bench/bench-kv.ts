/**
 * The KV cache's size (`llm.engine.kvCacheTokens`) from a concurrency sweep that reached it. Past
 * the cache's limit, more users do not mean more sequences in the batch: the sequences decoding
 * (output tokens/s × the gap between tokens, Little's law) stop growing, the gap and tokens/s
 * flatten, and TTFT climbs with the wait inside the server. Below it they grow with the users.
 *
 * - `plateaued`: a level whose sequences decoding grew by less than `PLATEAU` of its users' growth
 *   over the level below (a sweep that never shows it never reached the limit).
 * - `firstGuess`: the most sequences seen decoding, each holding its prompt and half its answer,
 *   with room for those prefilling.
 * - `kvStep`: at the levels where the cache binds, tokens/s grows with the sequences the cache
 *   holds: the size moves by what the simulated tokens/s missed there.
 */
import { meanMs } from '../../contract/duration-spec.js';
import { KV_BLOCK_TOKENS } from '../../contract/llm-config.js';
import type { FitLevel, Predicted } from './bench-level.js';

/** Sequences decoding grew by less than this share of the users' growth: the cache's limit was reached. */
const PLATEAU = 0.75;
/** Sequences running beside those decoding (prefilling, or between two iterations): the first guess's headroom. */
const HEADROOM = 1.25;

/** Tokens one request holds on average while it runs: its prompt and half its answer. */
export function tokensHeld(l: FitLevel): number {
  return meanMs(l.workload.promptTokens) + meanMs(l.workload.outputTokens) / 2;
}

/** Tokens one request holds at its end: its prompt and its whole answer. */
const tokensAtEnd = (l: FitLevel): number => meanMs(l.workload.promptTokens) + meanMs(l.workload.outputTokens);

/** Sequences the cache holds at once at this level's lengths. */
export function sequencesIn(kvCacheTokens: number, l: FitLevel): number {
  return Math.max(1, Math.floor(kvCacheTokens / tokensHeld(l)));
}

/** Sequences decoding on average, from what the level measured (undefined without tokens/s or a gap). */
function decoding(l: FitLevel): number | undefined {
  const gap = l.measured[l.gap];
  const tps = l.measured.outputTokensPerS;
  return gap === undefined || tps === undefined ? undefined : (tps * gap) / 1000;
}

/** Did the sweep reach a limit on the sequences running (the KV cache's)? */
export function plateaued(levels: readonly FitLevel[]): boolean {
  const s = [...levels].sort((a, b) => a.users - b.users);
  for (let i = 1; i < s.length; i++) {
    const lo = decoding(s[i - 1]!);
    const hi = decoding(s[i]!);
    if (lo === undefined || hi === undefined || s[i]!.users <= s[i - 1]!.users) continue;
    const grew = (hi / lo - 1) / (s[i]!.users / s[i - 1]!.users - 1);
    if (grew < PLATEAU) return true;
  }
  return false;
}

/** The first guess: the most sequences seen decoding, with headroom, each holding its prompt and half its answer. */
export function firstGuess(levels: readonly FitLevel[]): number {
  let best = 0;
  for (const l of levels) best = Math.max(best, (decoding(l) ?? 1) * HEADROOM * tokensHeld(l));
  return wholeBlocks(best);
}

/** The levels whose requests all fit in the cache together (all of them without a cache). */
export function unbound(levels: readonly FitLevel[], kvCacheTokens: number | undefined): FitLevel[] {
  return kvCacheTokens === undefined ? [...levels] : levels.filter((l) => l.users * tokensHeld(l) <= kvCacheTokens);
}

/** Does a cache of this size bind at the sweep's busiest level (its requests at their ends do not all fit)? */
export function binds(kvCacheTokens: number, levels: readonly FitLevel[]): boolean {
  return levels.some((l) => l.users * tokensAtEnd(l) > kvCacheTokens);
}

/** The size moved by the tokens/s the simulator missed where the cache binds (a factor of 2 at most a round). */
export function kvStep(levels: readonly FitLevel[], sims: readonly Predicted[], kvCacheTokens: number): number {
  let logs = 0;
  let n = 0;
  levels.forEach((l, i) => {
    const want = l.measured.outputTokensPerS;
    const got = sims[i]!.outputTokensPerS;
    if (want === undefined || got === undefined || got <= 0 || l.users * tokensHeld(l) <= kvCacheTokens) return;
    logs += Math.log(want / got);
    n++;
  });
  if (n === 0) return kvCacheTokens;
  const factor = Math.min(2, Math.max(0.5, Math.exp(logs / n)));
  return wholeBlocks(kvCacheTokens * factor);
}

/** A size in whole blocks, at least one. */
export function wholeBlocks(tokens: number): number {
  return Math.max(1, Math.round(tokens / KV_BLOCK_TOKENS)) * KV_BLOCK_TOKENS;
}
