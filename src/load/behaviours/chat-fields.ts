/**
 * `openai-chat`'s multi-turn keys: `turns` per session, `thinkTimeMs` between a turn's answer and
 * the next turn, and a `systemPromptTokens` system message shared by every session of the flow.
 * The names follow the LLM load tools: GenAI-Perf's and AIPerf's session turns and turn delay,
 * k6's and Locust's think time (the closed arrival's `thinkTimeMs` too, between sessions).
 */
import { z } from 'zod';
import { durationSchema } from '../../contract/duration-spec.js';
import { tokenCountSchema } from '../../contract/llm-config.js';
import { PROMPT_TOKENS_MAX } from './prompt-text.js';

/** Most turns of one session. */
export const TURNS_MAX = 1000;

export const chatFields = {
  turns: tokenCountSchema
    .refine((t) => typeof t !== 'number' || t <= TURNS_MAX, { message: `must be at most ${TURNS_MAX}` })
    .optional()
    .meta({
      description: `Turns of each session (a multi-turn chat): each turn is one request whose messages are the whole conversation so far (the system message, every earlier user message and answer as received) and a new user message. A whole number from 1 to ${TURNS_MAX}, or a distribution object as promptTokens takes (values in turns), drawn per session; draws are rounded, at least 1 and at most ${TURNS_MAX}. Default: unset (one request per session, no session figures).`,
      examples: [3, { dist: 'uniform', minMs: 2, maxMs: 8 }],
    }),
  thinkTimeMs: durationSchema.optional().meta({
    description:
      "With turns: the pause (ms) between a turn's answer and the next turn's request, as a user reads and types: whole ms or a distribution object keyed by `dist`, drawn per turn on the target's clock. Default: 0.",
    examples: [0, 5000, { dist: 'lognormal', medianMs: 8000, p95Ms: 30_000 }],
  }),
  systemPromptTokens: z
    .number()
    .int()
    .min(1)
    .max(PROMPT_TOKENS_MAX)
    .optional()
    .meta({
      description: `A system message of exactly this many tokens (4 characters a token) opening every request of the flow, the same text for every session (a prefix a prefix cache shares across sessions); at most ${PROMPT_TOKENS_MAX}. Default: unset (no system message).`,
      examples: [500, 2000],
    }),
};

/**
 * Keys of a flow's client that its other keys rule out: `thinkTimeMs` needs `turns` (the pause
 * between sessions is a closed arrival's `thinkTimeMs`); a token trace's rows are single requests
 * with their own prompt, so `turns` and `systemPromptTokens` take no `replay` with `format`.
 */
export function chatConflicts(f: { arrival: { process: string }; client: { behaviour: string } }): { key: string; message: string }[] {
  if (f.client.behaviour !== 'openai-chat') return [];
  const c = f.client as { turns?: unknown; thinkTimeMs?: unknown; systemPromptTokens?: unknown };
  const out: { key: string; message: string }[] = [];
  if (c.thinkTimeMs !== undefined && c.turns === undefined)
    out.push({
      key: 'thinkTimeMs',
      message: 'needs turns (it is the pause between turns of a session; between sessions, give a closed arrival its thinkTimeMs)',
    });
  const trace = f.arrival.process === 'replay' && (f.arrival as { format?: unknown }).format !== undefined;
  for (const key of ['turns', 'systemPromptTokens'] as const)
    if (trace && c[key] !== undefined) out.push({ key, message: 'not with a token trace (replay with format): each row is one request with its own prompt' });
  return out;
}
