/**
 * The multi-turn part of an `openai-chat` flow (chat-fields.ts), made once per flow: the turn
 * count and think-time draws, the shared system message, and each turn's user message. Draws come
 * from streams of their own, seeded by draws of the flow's client stream when the flow starts (as
 * the prompt lengths': prompt-text.ts), so they never shift its back-off jitter.
 */
import { Alea, type RandomStream } from '../../lib/random.js';
import { sampler } from '../../sampling/registry.js';
import type { DurationSpec } from '../../contract/duration-spec.js';
import type { LlmConfig } from '../../contract/llm-config.js';
import { TURNS_MAX } from './chat-fields.js';
import { startChat, type ChatFlow, type Message } from './chat-session.js';
import { headedText, tokensOf } from './prompt-text.js';
import type { AffinityMode } from './affinity.js';
import type { BehaviourEnv, Session } from './types.js';

/** What of an openai-chat spec a multi-turn flow reads. */
export interface ChatSpec {
  turns?: LlmConfig['outputTokens'] | undefined;
  thinkTimeMs?: DurationSpec | undefined;
  promptTokens?: LlmConfig['outputTokens'] | undefined;
  prompt: string;
  affinity?: AffinityMode | undefined;
}

/** The flow's system message: `tokens` tokens naming the flow, the same text for every session. */
export function systemMessage(flow: string, tokens: number): Message {
  return { role: 'system', content: headedText(`system:${flow}`, tokens) };
}

/**
 * A session starter for a flow with `turns`; undefined without (one request per session). A
 * turn's user message: with `promptTokens`, a text of that many tokens opening with the flow, the
 * session and the turn (`chat/12.3`), so no two sessions share text past the system message; else
 * `prompt` with `{{seq}}` and `{{turn}}` replaced.
 */
export function chatFlowOf(spec: ChatSpec, env: BehaviourEnv, system: Message | undefined, send: ChatFlow['send']): ((s: Session) => void) | undefined {
  if (spec.turns === undefined) return undefined;
  const turns = countOf(spec.turns, env.rng, 'turns');
  const think = spec.thinkTimeMs === undefined ? () => 0 : durationOf(spec.thinkTimeMs, env.rng);
  const tokens = spec.promptTokens === undefined ? undefined : tokensOf(spec.promptTokens, env.rng);
  const user = tokens
    ? (seq: number, turn: number) => headedText(`${env.flow}/${seq}.${turn}`, tokens())
    : (seq: number, turn: number) => spec.prompt.replaceAll('{{seq}}', String(seq)).replaceAll('{{turn}}', String(turn));
  const flow: ChatFlow = { env, turns, think, system, user, send, affinity: spec.affinity };
  return (s) => startChat(flow, s);
}

/** A whole count in [1, TURNS_MAX]: fixed, or drawn from a stream of its own. */
function countOf(spec: LlmConfig['outputTokens'], rng: RandomStream, name: string): () => number {
  const clamp = (n: number) => Math.min(TURNS_MAX, Math.max(1, Math.round(n)));
  if (typeof spec === 'number') return () => clamp(spec);
  const draw = sampler(spec, new Alea(`chat-${name}/${rng.next()}`));
  return () => clamp(draw());
}

/** Think times in ms (at least 0): fixed, or drawn from a stream of their own. */
function durationOf(spec: DurationSpec, rng: RandomStream): () => number {
  if (typeof spec === 'number') return () => spec;
  const draw = sampler(spec, new Alea(`chat-think/${rng.next()}`));
  return () => Math.max(0, draw());
}
