/**
 * How many prompt tokens a request carries, by one rule the simulator and the load generator
 * share: a text is `ceil(characters / 4)` tokens (the usual rule of thumb for English with BPE
 * tokenizers); a list of token ids counts its items. A batching worker (`llm.engine`) prefills
 * that many tokens. The OpenAI routes read `messages[].content` (a string, or parts with `text`)
 * or `prompt`; `/run` and `/runsync` read `input.prompt` or `input.messages` the same way (the
 * RunPod vLLM worker's input).
 */

/** Tokens of a text by the rule. */
export function tokensOfText(text: string): number {
  return Math.ceil(text.length / 4);
}

/**
 * A text of exactly `n` tokens by the rule that is also `n` tokens for common BPE tokenizers:
 * "the" then " the" repeated (4 characters, one token each).
 */
export function textOfTokens(n: number): string {
  return n <= 0 ? '' : `the${' the'.repeat(n - 1)}`;
}

/** Tokens in one KV block of a Mooncake trace's `hash_ids` (its prefix blocks). */
export const TRACE_BLOCK_TOKENS = 512;
/** Characters of one 16-token piece of a block's text (the 4-characters-a-token rule). */
const PIECE_CHARS = 64;
const PIECE_PAD = ' the'.repeat(PIECE_CHARS / 4);

/**
 * A prompt of exactly `inputLength` tokens (4 characters each: `4 × inputLength` characters) made
 * of the blocks `hashIds`, `blockTokens` tokens each: equal ids give equal text, so two prompts
 * whose ids agree up to block k share their first k blocks' text, character for character, and
 * differ from the first block that differs. Block k is 16-token pieces (64 characters) each
 * opening with a word naming k and the piece's place in the block (`k.j`, base 36), then " the"
 * padding: no two pieces of any prompt are equal unless they are the same piece of the same
 * block. The last block is cut where the prompt ends; a prompt longer than its blocks goes on with
 * " the". Ids are whole numbers >= 0.
 */
export function textOfBlocks(hashIds: readonly number[], inputLength: number, blockTokens = TRACE_BLOCK_TOKENS): string {
  const chars = Math.max(0, inputLength) * 4;
  const blockChars = blockTokens * 4;
  const parts: string[] = [];
  let n = 0;
  for (const id of hashIds) {
    if (n >= chars) break;
    const b = blockText(id, blockChars);
    const take = Math.min(blockChars, chars - n);
    parts.push(take === blockChars ? b : b.slice(0, take));
    n += take;
  }
  if (n < chars) parts.push(' the'.repeat((chars - n) / 4));
  return parts.join('');
}

/** Block `id`'s text, `chars` characters (a multiple of 4). */
function blockText(id: number, chars: number): string {
  let s = '';
  for (let j = 0; s.length < chars; j++) {
    // The head is padded with spaces to whole tokens; " the" fills the rest of the 64 characters.
    const head = ` ${id.toString(36)}.${j.toString(36)}`;
    const padded = head + ' '.repeat((4 - (head.length % 4)) % 4);
    s += padded + PIECE_PAD.slice(0, Math.max(0, PIECE_CHARS - padded.length));
  }
  return s.length === chars ? s : s.slice(0, chars);
}

/** What a walk over a prompt's parts (forEachPromptPart) calls, part by part in order. */
export interface PromptParts {
  /** A text: a message's content or the prompt, or one of its parts (a string, or a part's `text`). */
  text(s: string): void;
  /** One item of a token-id prompt. */
  tokenId(id: number): void;
}

/**
 * Walks the prompt of an OpenAI-style body or a job input: `messages[].content` in order, else
 * `prompt`; each a string, or a list of parts (token ids, strings, `{text}`; anything else skipped).
 */
export function forEachPromptPart(body: unknown, to: PromptParts): void {
  if (typeof body !== 'object' || body === null) return;
  const o = body as { prompt?: unknown; messages?: unknown };
  if (Array.isArray(o.messages)) for (const m of o.messages) contentParts((m as { content?: unknown } | null)?.content, to);
  else contentParts(o.prompt, to);
}

function contentParts(c: unknown, to: PromptParts): void {
  if (typeof c === 'string') return to.text(c);
  if (!Array.isArray(c)) return;
  for (const p of c) {
    if (typeof p === 'number') to.tokenId(p);
    else if (typeof p === 'string') to.text(p);
    else if (typeof p === 'object' && p !== null && typeof (p as { text?: unknown }).text === 'string') to.text((p as { text: string }).text);
  }
}

/** promptTokensOf's count: each text by the rule, each token id one. */
class TokenCount implements PromptParts {
  n = 0;
  text(s: string): void {
    this.n += tokensOfText(s);
  }
  tokenId(): void {
    this.n++;
  }
}

/** One count for every call (a walk is synchronous): no allocation per request. */
const COUNT = new TokenCount();

/** Prompt tokens of an OpenAI-style body or a job input (`prompt` or `messages`); 0 when it has neither. */
export function promptTokensOf(body: unknown): number {
  COUNT.n = 0;
  forEachPromptPart(body, COUNT);
  return COUNT.n;
}
