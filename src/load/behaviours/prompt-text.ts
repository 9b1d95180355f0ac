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
  const n = tokensOf(spec, rng);
  return () => textOfTokens(n());
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

/**
 * A text of exactly `tokens` tokens by the rule (4 × tokens characters) that opens with the word
 * `head` (padded with spaces to whole tokens), then " the" repeated; cut at 4 × tokens characters
 * when the head is longer. A multi-turn chat names each user message's session and turn this way,
 * so sessions share no text past their system prompt (a prefix cache sees what real users send).
 */
export function headedText(head: string, tokens: number): string {
  const chars = 4 * Math.max(0, tokens);
  const padded = head + ' '.repeat((4 - (head.length % 4)) % 4);
  if (padded.length >= chars) return padded.slice(0, chars);
  return padded + ' the'.repeat((chars - padded.length) / 4);
}

/** A token-count maker as `promptOfTokens`, giving the count instead of a text (a multi-turn chat heads each message). */
export function tokensOf(spec: LlmConfig['outputTokens'], rng: RandomStream): () => number {
  if (typeof spec === 'number' || spec.dist === 'constant') {
    const n = clampTokens(typeof spec === 'number' ? spec : spec.ms);
    return () => n;
  }
  const draw = sampler(spec, new Alea(`prompt-tokens/${rng.next()}`));
  return () => clampTokens(draw());
}
