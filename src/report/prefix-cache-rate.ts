/**
 * A prefix cache hit rate: prompt tokens served from the cache over prompt tokens (vLLM's
 * prefix_cache_hits / prefix_cache_queries), to 4 decimals; null when there was no prompt token.
 * One rule for a flow's (`flows.*.stream`, from its answers' usage) and the endpoint's engines'
 * (`engine`), in a run and in a merge of runs.
 */
import type { FlowStreamStats } from './run-result.js';

export function hitRate(promptTokens: number, cachedTokens: number): number | null {
  return promptTokens > 0 ? Math.round((cachedTokens / promptTokens) * 1e4) / 1e4 : null;
}

/** A flow's prompt tokens, those served from the prefix cache, and their rate. */
export function prefixCacheOf(promptTokens: number, cachedTokens: number): Pick<FlowStreamStats, 'promptTokens' | 'cachedPromptTokens' | 'prefixCacheHitRate'> {
  return { promptTokens, cachedPromptTokens: cachedTokens, prefixCacheHitRate: hitRate(promptTokens, cachedTokens) };
}
