/**
 * A job's prompt and answer against the model's context (vLLM's max_model_len, which vLLM never
 * lets exceed its KV cache: here the cache's size, `llm.engine.kvCacheTokens`). An answer that
 * would run past it is cut there (OpenAI finish_reason "length"); a prompt that leaves no room for
 * one token is refused, and the job fails with vLLM's reason. Without a cache size nothing is cut.
 */
import { KV_BLOCK_TOKENS } from '../contract/llm-config.js';
import type { TokenRun } from './token-model.js';

export interface ContextFit {
  run: TokenRun;
  /** Prompt tokens the engine prefills. */
  promptTokens: number;
  /** Set when the prompt does not fit: the job fails with it (its run is one token, unseen). */
  error?: string;
}

export function fitToContext(run: TokenRun, promptTokens: number, kvCacheTokens: number | undefined): ContextFit {
  if (kvCacheTokens === undefined) return { run, promptTokens };
  // The cache's whole blocks: a sequence alone always fits in them.
  const contextTokens = Math.floor(kvCacheTokens / KV_BLOCK_TOKENS) * KV_BLOCK_TOKENS;
  const prompt = Math.max(1, promptTokens);
  if (prompt >= contextTokens)
    return {
      run: { count: 1, capped: false, atMs: [] },
      promptTokens: 1,
      error: `the prompt (${prompt} tokens) leaves no room in the model's context of ${contextTokens} tokens (the KV cache)`,
    };
  const room = contextTokens - prompt;
  return run.count <= room ? { run, promptTokens } : { run: { count: room, capped: true, atMs: [] }, promptTokens };
}
