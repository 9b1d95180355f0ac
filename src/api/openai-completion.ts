/**
 * One OpenAI completion request as its answer needs it, and the parts of that answer shared by
 * the held reply (routes/openai.ts) and the token stream (token-stream.ts): chunk writer, usage,
 * and the error of a job that ended otherwise.
 */
import type { Job } from '../sim/job.js';
import { apiError } from './errors.js';
import { ChunkWriter, type CompletionKind, type Usage } from './openai-chunks.js';
import { openaiErrorBody } from './openai-errors.js';
import { promptTokens } from './openai-text.js';
import type { ApiResponse, RouteContext } from './types.js';

export const OPENAI_MODEL = 'loadlab-sim';

/** What the answer needs of the request, checked. */
export interface Completion {
  kind: CompletionKind;
  /** The request body. */
  o: Record<string, unknown>;
  /** `max_tokens` or `max_completion_tokens`, if given. */
  maxTokens: number | undefined;
  /** `stream_options.include_usage`. */
  includeUsage: boolean;
}

/** The 500 of a job that ended otherwise than COMPLETED (or still runs when the wait ended): its status as `code`. */
export function jobEndedError(ctx: RouteContext, j: Job): ApiResponse {
  const r = apiError('API_ERR_JOB_FAILED', `job ${ctx.ep.jobs.idOf(j)} ended ${j.status}${j.error && j.status !== 'IN_PROGRESS' ? `: ${j.error}` : ''}`);
  return { status: r.status, body: openaiErrorBody(r.status, (r.body as { error: string }).error, j.status) };
}

/** The chunk writer of a job's streamed answer. */
export function chunkWriter(ctx: RouteContext, j: Job, c: Completion): ChunkWriter {
  const model = typeof c.o.model === 'string' ? c.o.model : OPENAI_MODEL;
  return new ChunkWriter(c.kind, `${c.kind === 'chat' ? 'chatcmpl' : 'cmpl'}-${ctx.ep.jobs.idOf(j)}`, model, Math.floor(ctx.sim.nowMs / 1000));
}

/**
 * The answer's `usage`. `engine`: the prompt as an `llm.engine` worker saw it (Endpoint.promptOf):
 * its tokens are the prompt tokens, and with prefix caching its cached tokens are
 * `prompt_tokens_details.cached_tokens` (vLLM's usage with --enable-prompt-tokens-details);
 * without an engine the prompt is a word count.
 */
export function usageOf(c: Completion, completionTokens: number, engine: { tokens: number; cachedTokens: number | undefined } | undefined): Usage {
  const prompt = engine ? engine.tokens : promptTokens(c.kind === 'chat' ? c.o.messages : c.o.prompt);
  const u: Usage = { prompt_tokens: prompt, completion_tokens: completionTokens, total_tokens: prompt + completionTokens };
  if (engine?.cachedTokens !== undefined) u.prompt_tokens_details = { cached_tokens: engine.cachedTokens };
  return u;
}
