/**
 * What the OpenAI routes say about tokens: the default `max_tokens` (16, without an `llm:` token
 * model), its upper bound, and a rough prompt size. The words come from sim/token-text.ts.
 */
import { MAX_OUTPUT_TOKENS } from '../contract/llm-config.js';

export { completionWords } from '../sim/token-text.js';

export const DEFAULT_COMPLETION_TOKENS = 16;
export const MAX_COMPLETION_TOKENS = MAX_OUTPUT_TOKENS;

/** Rough prompt size: whitespace-separated words of every string in the request's messages or prompt. */
export function promptTokens(x: unknown): number {
  if (typeof x === 'string') return x.split(/\s+/).filter(Boolean).length;
  if (Array.isArray(x)) return x.reduce((n: number, y) => n + promptTokens(y), 0);
  if (x && typeof x === 'object') return Object.values(x).reduce((n: number, y) => n + promptTokens(y), 0);
  return 0;
}
