/** The reference model's answers that are not status bodies: errors by code (and cause), and the OpenAI routes' codes. */
import type { RefAnswer } from './types.js';

/** `/runsync` and `/status-sync` wait this long without `?wait=`. */
export const DEFAULT_WAIT_MS = 90_000;
/** Without llm: a completion has max_tokens words (default 16). */
export const DEFAULT_COMPLETION_TOKENS = 16;

export const err = (status: number, code: string, cause?: string): RefAnswer => ({ status, body: cause ? { code, cause } : { code } });
export const NOT_FOUND = (): RefAnswer => err(404, 'API_ERR_JOB_NOT_FOUND');
export const LIMIT_CODES = { rate: 'API_ERR_RATE_LIMITED', concurrency: 'API_ERR_CONCURRENCY_LIMITED', queue: 'API_ERR_QUEUE_FULL' } as const;

/** The OpenAI routes' error codes (openai-errors). */
const OPENAI_CODES: Record<string, string> = {
  API_ERR_JOB_NOT_FOUND: 'job_not_found',
  API_ERR_RATE_LIMITED: 'rate_limit_exceeded',
  API_ERR_CONCURRENCY_LIMITED: 'rate_limit_exceeded',
  API_ERR_QUEUE_FULL: 'rate_limit_exceeded',
};
export const openaiErr = (a: RefAnswer): RefAnswer => ({ status: a.status, body: { ...a.body, code: OPENAI_CODES[a.body.code as string] ?? a.body.code } });

/**
 * Prompt tokens of a job's request, by the rule stated for users (characters / 4, rounded up):
 * an OpenAI request's messages, or a /run input's `prompt` (a string) or `messages`.
 */
/** The prompt's text as prefix caching reads it: the messages' contents in order, or `prompt`. */
export function promptTextOf(kind: 'run' | 'runsync' | 'openai' | 'lb', input: Record<string, unknown>): string {
  const src = (kind === 'openai' ? input.openai_input : input) as { prompt?: unknown; messages?: unknown };
  const str = (x: unknown) => (typeof x === 'string' ? x : '');
  if (Array.isArray(src.messages)) return src.messages.map((m: { content?: unknown }) => str(m.content)).join('');
  return str(src.prompt);
}

export function promptTokensOf(kind: 'run' | 'runsync' | 'openai' | 'lb', input: Record<string, unknown>): number {
  const src = (kind === 'openai' ? input.openai_input : input) as { prompt?: unknown; messages?: unknown };
  const chars = (x: unknown) => (typeof x === 'string' ? Math.ceil(x.length / 4) : 0);
  if (Array.isArray(src.messages)) return src.messages.reduce((n: number, m: { content?: unknown }) => n + chars(m.content), 0);
  return chars(src.prompt);
}
