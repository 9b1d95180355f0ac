/**
 * OpenAI-compatible routes: `/openai/v1/models`, `/openai/v1/chat/completions`,
 * `/openai/v1/completions`. A completion becomes a normal job with input
 * `{openai_route, openai_input}`; the answer waits for the job (up to its execution timeout) and
 * is an OpenAI body, or server-sent event chunks when `stream: true`. On an `llm:` endpoint the
 * token model gives the tokens (`max_tokens` caps them: `finish_reason: "length"`; with vLLM's
 * `ignore_eos: true` the answer is `max_tokens` long exactly, 4096 without it) and a
 * streamed answer sends each chunk as its token is produced (token-stream.ts); without it the
 * completion has `max_tokens` words (default 16), all sent when the job ends.
 */
import { promptTokensOf } from '../../contract/prompt-tokens.js';
import { promptBlocksOf } from '../../contract/prompt-blocks.js';
import type { Job } from '../../sim/job.js';
import { badField } from '../errors.js';
import { hold } from '../hold.js';
import { DONE, type CompletionKind } from '../openai-chunks.js';
import { chunkWriter, jobEndedError, OPENAI_MODEL, usageOf, type Completion } from '../openai-completion.js';
import { completionWords, DEFAULT_COMPLETION_TOKENS, MAX_COMPLETION_TOKENS } from '../openai-text.js';
import { streamTokens } from '../token-stream.js';
import type { ApiResponse, RouteContext } from '../types.js';
import { createJob } from './submit.js';

export { OPENAI_MODEL };

/** `/v1/models`' body: the one simulated model. */
export const MODELS_BODY = Object.freeze({ object: 'list', data: [{ id: OPENAI_MODEL, object: 'model', created: 0, owned_by: 'loadlab' }] });

export function models(ctx: RouteContext): void {
  ctx.respond({ status: 200, body: MODELS_BODY });
}

function request(ctx: RouteContext, kind: CompletionKind): void {
  const b = ctx.body;
  if (typeof b !== 'object' || b === null || Array.isArray(b)) return ctx.respond(badField('body', 'must be a JSON object'));
  const o = b as Record<string, unknown>;
  if (kind === 'chat' && (!Array.isArray(o.messages) || o.messages.length === 0)) return ctx.respond(badField('messages', 'must be a non-empty array'));
  if (kind === 'text' && typeof o.prompt !== 'string' && !Array.isArray(o.prompt)) return ctx.respond(badField('prompt', 'must be a string or an array'));
  if (o.model !== undefined && typeof o.model !== 'string') return ctx.respond(badField('model', 'must be a string'));
  if (o.stream !== undefined && typeof o.stream !== 'boolean') return ctx.respond(badField('stream', 'must be a boolean'));
  const so = o.stream_options;
  if (so !== undefined && so !== null && (typeof so !== 'object' || Array.isArray(so))) return ctx.respond(badField('stream_options', 'must be an object'));
  const includeUsage = (so as { include_usage?: unknown } | null | undefined)?.include_usage;
  if (includeUsage !== undefined && typeof includeUsage !== 'boolean') return ctx.respond(badField('stream_options.include_usage', 'must be a boolean'));
  if (o.ignore_eos !== undefined && typeof o.ignore_eos !== 'boolean') return ctx.respond(badField('ignore_eos', 'must be a boolean'));
  const maxField = o.max_tokens !== undefined ? 'max_tokens' : 'max_completion_tokens';
  const maxTok = o[maxField];
  if (maxTok !== undefined && (!Number.isInteger(maxTok) || (maxTok as number) < 1 || (maxTok as number) > MAX_COMPLETION_TOKENS))
    return ctx.respond(badField(maxField, `must be an integer from 1 to ${MAX_COMPLETION_TOKENS}`));
  const c: Completion = { kind, o, maxTokens: maxTok as number | undefined, includeUsage: includeUsage === true };
  const llm = ctx.ep.cfg.llm !== undefined;
  const route = kind === 'chat' ? '/v1/chat/completions' : '/v1/completions';
  const j = createJob(ctx, {
    kind: 'openai',
    id: '',
    input: { openai_route: route, openai_input: o },
    maxTokens: llm ? c.maxTokens : undefined,
    ignoreEos: llm && o.ignore_eos === true,
    promptTokens: ctx.ep.cfg.llm?.engine ? promptTokensOf(o) : undefined,
    promptBlocks: ctx.ep.cfg.llm?.engine?.prefixCaching ? promptBlocksOf(o) : undefined,
  });
  if (!j) return;
  if (llm && o.stream === true) return streamTokens(ctx, j, c);
  hold(ctx, j, ctx.ep.answerWithinMs(j), 'terminal', (x, job) => reply(x, job, c));
}

export const chatCompletions = (ctx: RouteContext): void => request(ctx, 'chat');
export const completions = (ctx: RouteContext): void => request(ctx, 'text');

function reply(ctx: RouteContext, j: Job, c: Completion): ApiResponse {
  if (j.status !== 'COMPLETED') return jobEndedError(ctx, j);
  const t = ctx.ep.tokensOf(j);
  const words = completionWords(ctx.ep.jobs.idOf(j), t?.count ?? c.maxTokens ?? DEFAULT_COMPLETION_TOKENS);
  const finish = t?.capped ? 'length' : 'stop';
  const usage = usageOf(c, words.length, ctx.ep.promptOf(j));
  if (c.o.stream === true) {
    const w = chunkWriter(ctx, j, c);
    const events = words.map((word, i) => w.token(i === 0 ? word : ` ${word}`, i === 0));
    events.push(w.finish(finish));
    if (c.includeUsage) events.push(w.usage(usage));
    events.push(DONE);
    return { status: 200, sse: events };
  }
  const model = typeof c.o.model === 'string' ? c.o.model : OPENAI_MODEL;
  const created = Math.floor(ctx.sim.nowMs / 1000);
  const id = `${c.kind === 'chat' ? 'chatcmpl' : 'cmpl'}-${ctx.ep.jobs.idOf(j)}`;
  const text = words.join(' ');
  const choice =
    c.kind === 'chat'
      ? { index: 0, message: { role: 'assistant', content: text }, finish_reason: finish, logprobs: null }
      : { index: 0, text, finish_reason: finish, logprobs: null };
  return { status: 200, body: { id, object: c.kind === 'chat' ? 'chat.completion' : 'text_completion', created, model, choices: [choice], usage } };
}
