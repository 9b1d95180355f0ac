/**
 * The content events of a streamed OpenAI answer (server-sent events): a `data:` event whose
 * `choices[]` carry non-empty `delta.content` (chat) or `text` (completions) is one, `[DONE]` and
 * role-only or finish events are not. `usage.completion_tokens`, when an event carries it
 * (`stream_options.include_usage`), is the answer's token count; with its
 * `prompt_tokens_details.cached_tokens` (vLLM with prefix caching and --enable-prompt-tokens-details,
 * the simulator with `llm.engine.prefixCaching`) it also tells the prompt tokens served from the
 * server's prefix cache. An `error` event ends a stream
 * that broke on the server's side after it began.
 */

export interface StreamContent {
  /** When each content event arrived (target clock). */
  atMs: number[];
  /** The last `usage.completion_tokens` seen; undefined: none. */
  usageTokens: number | undefined;
  /** `usage.prompt_tokens_details.cached_tokens`, set only when the usage also had a count of `prompt_tokens`. */
  cachedTokens: number | undefined;
  /**
   * An `error` event ended the stream (the job failed, timed out or was cancelled after its first
   * token): its `code`, or `''` when it has none; undefined: no error event.
   */
  errorCode: string | undefined;
  /** Events other than `[DONE]`. */
  events: number;
}

/** `sse`'s content events; `sseAtMs`: when each arrived (absent: all at `atMs`). */
export function streamContent(sse: readonly string[], sseAtMs: readonly number[] | undefined, atMs: number): StreamContent {
  const out: StreamContent = { atMs: [], usageTokens: undefined, cachedTokens: undefined, errorCode: undefined, events: 0 };
  for (let i = 0; i < sse.length; i++) {
    const d = sse[i]!;
    if (d === '[DONE]') continue;
    out.events++;
    let e: unknown;
    try {
      e = JSON.parse(d);
    } catch {
      continue;
    }
    if (typeof e !== 'object' || e === null) continue;
    const { choices, usage, error } = e as { choices?: unknown; usage?: Usage | null; error?: { code?: unknown } | null };
    if (typeof error === 'object' && error !== null) out.errorCode = typeof error.code === 'string' ? error.code : '';
    const tokens = usage?.completion_tokens;
    if (typeof tokens === 'number' && Number.isInteger(tokens) && tokens >= 0) out.usageTokens = tokens;
    const cached = usage?.prompt_tokens_details?.cached_tokens;
    if (isCount(cached) && isCount(usage!.prompt_tokens)) out.cachedTokens = cached;
    if (Array.isArray(choices) && choices.some(hasContent)) out.atMs.push(sseAtMs?.[i] ?? atMs);
  }
  return out;
}

interface Usage {
  completion_tokens?: unknown;
  prompt_tokens?: unknown;
  prompt_tokens_details?: { cached_tokens?: unknown } | null;
}

const isCount = (x: unknown): x is number => typeof x === 'number' && Number.isInteger(x) && x >= 0;

function hasContent(c: unknown): boolean {
  if (typeof c !== 'object' || c === null) return false;
  const { delta, text } = c as { delta?: { content?: unknown } | null; text?: unknown };
  const content = delta?.content;
  return (typeof content === 'string' && content.length > 0) || (typeof text === 'string' && text.length > 0);
}
