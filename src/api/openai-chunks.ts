/**
 * The server-sent event chunks of a streamed OpenAI answer (`chat.completion.chunk` or
 * `text_completion`): one per token, then one with the `finish_reason`, then (when the request
 * asked with `stream_options.include_usage`) one with `usage` and no choices, then `[DONE]`.
 */
export type CompletionKind = 'chat' | 'text';

export interface Usage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  /** With prefix caching (`llm.engine.prefixCaching`): prompt tokens served from the worker's cache (vLLM --enable-prompt-tokens-details). */
  prompt_tokens_details?: { cached_tokens: number };
}

export class ChunkWriter {
  private readonly object: string;

  constructor(
    private readonly kind: CompletionKind,
    private readonly id: string,
    private readonly model: string,
    private readonly created: number,
  ) {
    this.object = kind === 'chat' ? 'chat.completion.chunk' : 'text_completion';
  }

  /** The chunk of token `piece` (`first`: the chat's first delta carries the role). */
  token(piece: string, first: boolean): string {
    return this.chunk(piece, null, first);
  }

  /** The chunk that says why the completion ended. */
  finish(reason: 'stop' | 'length'): string {
    return this.chunk(undefined, reason, false);
  }

  /** The usage chunk (`stream_options.include_usage`): no choices. */
  usage(u: Usage): string {
    return JSON.stringify({ id: this.id, object: this.object, created: this.created, model: this.model, choices: [], usage: u });
  }

  private chunk(piece: string | undefined, finish: string | null, first: boolean): string {
    const choice =
      this.kind === 'chat'
        ? {
            index: 0,
            delta: piece === undefined ? {} : first ? { role: 'assistant', content: piece } : { content: piece },
            finish_reason: finish,
            logprobs: null,
          }
        : { index: 0, text: piece ?? '', finish_reason: finish, logprobs: null };
    return JSON.stringify({ id: this.id, object: this.object, created: this.created, model: this.model, choices: [choice] });
  }
}

export const DONE = '[DONE]';
