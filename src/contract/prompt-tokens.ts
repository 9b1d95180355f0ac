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

/** Prompt tokens of an OpenAI-style body or a job input (`prompt` or `messages`); 0 when it has neither. */
export function promptTokensOf(body: unknown): number {
  if (typeof body !== 'object' || body === null) return 0;
  const o = body as { prompt?: unknown; messages?: unknown };
  if (Array.isArray(o.messages)) {
    let n = 0;
    for (const m of o.messages) n += contentTokens((m as { content?: unknown } | null)?.content);
    return n;
  }
  return contentTokens(o.prompt);
}

function contentTokens(c: unknown): number {
  if (typeof c === 'string') return tokensOfText(c);
  if (!Array.isArray(c)) return 0;
  let n = 0;
  for (const p of c) {
    if (typeof p === 'number') n++;
    else if (typeof p === 'string') n += tokensOfText(p);
    else if (typeof p === 'object' && p !== null && typeof (p as { text?: unknown }).text === 'string') n += tokensOfText((p as { text: string }).text);
  }
  return n;
}
