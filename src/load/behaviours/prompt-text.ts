/**
 * `openai-chat`'s `promptTokens`: each request's user message built to a token count (fixed, or
 * drawn per request), by the rule the simulator counts prompt tokens with (4 characters a token:
 * contract/prompt-tokens.ts), so a batching endpoint prefills exactly that many.
 */
import type { LlmConfig } from '../../contract/llm-config.js';
import { textOfBlocks, textOfTokens } from '../../contract/prompt-tokens.js';
import type { TraceRequest } from '../arrivals/types.js';
import { Alea, type RandomStream } from '../../lib/random.js';
import { sampler } from '../../sampling/registry.js';

/** Longest prompt drawn, in tokens: a 128k-token context. */
export const PROMPT_TOKENS_MAX = 131_072;

/**
 * The message maker of a flow. A distribution draws from a stream of its own, seeded by one draw
 * of the flow's client stream when the flow starts: the prompts' draws never shift that stream's
 * other draws (back-off jitter), and a seed still fixes every prompt.
 */
export function promptOfTokens(spec: LlmConfig['outputTokens'], rng: RandomStream): () => string {
  if (typeof spec === 'number' || spec.dist === 'constant') {
    const text = textOfTokens(clampTokens(typeof spec === 'number' ? spec : spec.ms));
    return () => text;
  }
  const draw = sampler(spec, new Alea(`prompt-tokens/${rng.next()}`));
  return () => textOfTokens(clampTokens(draw()));
}

/** A draw as a whole token count in [1, PROMPT_TOKENS_MAX]. */
function clampTokens(n: number): number {
  return Math.min(PROMPT_TOKENS_MAX, Math.max(1, Math.round(n)));
}

/**
 * A token trace request's prompt: exactly its prompt tokens by the rule; a Mooncake row's from its
 * block ids (equal blocks, equal text: a shared prefix is the same string), any other " the" repeated.
 */
export function promptOfRequest(r: TraceRequest): string {
  return r.hashIds ? textOfBlocks(r.hashIds, r.promptTokens) : textOfTokens(r.promptTokens);
}
