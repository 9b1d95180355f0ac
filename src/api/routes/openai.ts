/**
 * OpenAI-compatible routes (FACTS): `/openai/v1/models`, `/openai/v1/chat/completions`,
 * `/openai/v1/completions`. A completion becomes a normal job with input
 * `{openai_route, openai_input}`; the answer waits for the job (up to its execution timeout) and
 * is an OpenAI body, or server-sent event chunks when `stream: true`.
 */
import type { Job } from '../../sim/job.js';
import { apiError, badField } from '../errors.js';
import { hold } from '../hold.js';
import { completionWords, DEFAULT_COMPLETION_TOKENS, MAX_COMPLETION_TOKENS, promptTokens } from '../openai-text.js';
import type { ApiResponse, RouteContext } from '../types.js';
import { createJob } from './submit.js';

export const OPENAI_MODEL = 'loadlab-sim';

export function models(ctx: RouteContext): void {
  ctx.respond({ status: 200, body: { object: 'list', data: [{ id: OPENAI_MODEL, object: 'model', created: 0, owned_by: 'loadlab' }] } });
}

type Kind = 'chat' | 'text';

function request(ctx: RouteContext, kind: Kind): void {
  const b = ctx.body;
  if (typeof b !== 'object' || b === null || Array.isArray(b)) return ctx.respond(badField('body', 'must be a JSON object'));
  const o = b as Record<string, unknown>;
  if (kind === 'chat' && (!Array.isArray(o.messages) || o.messages.length === 0)) return ctx.respond(badField('messages', 'must be a non-empty array'));
  if (kind === 'text' && typeof o.prompt !== 'string' && !Array.isArray(o.prompt)) return ctx.respond(badField('prompt', 'must be a string or an array'));
  if (o.model !== undefined && typeof o.model !== 'string') return ctx.respond(badField('model', 'must be a string'));
  if (o.stream !== undefined && typeof o.stream !== 'boolean') return ctx.respond(badField('stream', 'must be a boolean'));
  const maxTok = o.max_tokens ?? o.max_completion_tokens;
  if (maxTok !== undefined && (!Number.isInteger(maxTok) || (maxTok as number) < 1 || (maxTok as number) > MAX_COMPLETION_TOKENS))
    return ctx.respond(badField('max_tokens', `must be an integer from 1 to ${MAX_COMPLETION_TOKENS}`));
  const route = kind === 'chat' ? '/v1/chat/completions' : '/v1/completions';
  const j = createJob(ctx, { kind: 'openai', id: '', input: { openai_route: route, openai_input: o } });
  if (!j) return;
  const tokens = (maxTok as number | undefined) ?? DEFAULT_COMPLETION_TOKENS;
  hold(ctx, j, ctx.ep.executionTimeoutOf(j) + 1, 'terminal', () => reply(ctx, j, kind, o, tokens));
}

export const chatCompletions = (ctx: RouteContext): void => request(ctx, 'chat');
export const completions = (ctx: RouteContext): void => request(ctx, 'text');

function reply(ctx: RouteContext, j: Job, kind: Kind, o: Record<string, unknown>, tokens: number): ApiResponse {
  if (j.status !== 'COMPLETED') {
    const r = apiError('API_ERR_JOB_FAILED', `job ${ctx.ep.jobs.idOf(j)} ended ${j.status}${j.error && j.status !== 'IN_PROGRESS' ? `: ${j.error}` : ''}`);
    return { status: r.status, body: { error: { message: (r.body as { error: string }).error, type: 'server_error', code: j.status } } };
  }
  const words = completionWords(ctx.ep.jobs.idOf(j), tokens);
  const model = typeof o.model === 'string' ? o.model : OPENAI_MODEL;
  const created = Math.floor(ctx.sim.nowMs / 1000);
  const id = `${kind === 'chat' ? 'chatcmpl' : 'cmpl'}-${ctx.ep.jobs.idOf(j)}`;
  const usage = { prompt_tokens: promptTokens(kind === 'chat' ? o.messages : o.prompt), completion_tokens: words.length, total_tokens: 0 };
  usage.total_tokens = usage.prompt_tokens + usage.completion_tokens;
  if (o.stream === true) return { status: 200, sse: sseChunks(kind, id, model, created, words) };
  const text = words.join(' ');
  const choice = kind === 'chat'
    ? { index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop', logprobs: null }
    : { index: 0, text, finish_reason: 'stop', logprobs: null };
  return { status: 200, body: { id, object: kind === 'chat' ? 'chat.completion' : 'text_completion', created, model, choices: [choice], usage } };
}

function sseChunks(kind: Kind, id: string, model: string, created: number, words: string[]): string[] {
  const object = kind === 'chat' ? 'chat.completion.chunk' : 'text_completion';
  const chunk = (piece: string | undefined, finish: string | null, first = false) => {
    const choice = kind === 'chat'
      ? { index: 0, delta: piece === undefined ? {} : first ? { role: 'assistant', content: piece } : { content: piece }, finish_reason: finish, logprobs: null }
      : { index: 0, text: piece ?? '', finish_reason: finish, logprobs: null };
    return JSON.stringify({ id, object, created, model, choices: [choice] });
  };
  const events = words.map((w, i) => chunk(i === 0 ? w : ` ${w}`, null, i === 0));
  events.push(chunk(undefined, 'stop'), '[DONE]');
  return events;
}
