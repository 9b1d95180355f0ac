/** Client behaviours by name (`behaviour` key). A new one is one file and one line here. */
import { z } from 'zod';
import { health } from './health.js';
import { openaiChat } from './openai-chat.js';
import { purgeQueue } from './purge-queue.js';
import { runPoll } from './run-poll.js';
import { runStream } from './run-stream.js';
import { runWebhook } from './run-webhook.js';
import { runsync } from './runsync.js';
import type { BehaviourEnv, BehaviourKind, Session } from './types.js';
import type { Operation } from '../../contract/operations.js';
import { meanMs } from '../../contract/duration-spec.js';
import { TURNS_MAX } from './chat-fields.js';

export const behaviours = {
  'run-poll': runPoll,
  'run-webhook': runWebhook,
  'run-stream': runStream,
  runsync,
  health,
  'purge-queue': purgeQueue,
  'openai-chat': openaiChat,
} as const;

export const behaviourSchema = z.discriminatedUnion('behaviour', [
  runPoll.schema,
  runWebhook.schema,
  runStream.schema,
  runsync.schema,
  health.schema,
  purgeQueue.schema,
  openaiChat.schema,
]);
export type BehaviourSpec = z.infer<typeof behaviourSchema>;

function kindOf(spec: BehaviourSpec): BehaviourKind {
  return behaviours[spec.behaviour] as unknown as BehaviourKind;
}

export function behaviourSession(spec: BehaviourSpec, env: BehaviourEnv): (s: Session) => void {
  return kindOf(spec).create(spec, env);
}

/** Does a session of this behaviour stream its answer (stream metrics: ttft, itl, tpot, tokens)? */
export function isStreaming(spec: BehaviourSpec): boolean {
  return spec.behaviour === 'run-stream' || (spec.behaviour === 'openai-chat' && spec.stream);
}

/** Is a session of this behaviour a conversation of turns (`openai-chat` with `turns`: session figures)? */
export function hasTurns(spec: BehaviourSpec): boolean {
  return spec.behaviour === 'openai-chat' && spec.turns !== undefined;
}

export function behaviourOperation(spec: BehaviourSpec): Operation {
  return kindOf(spec).operation(spec);
}

/** Behaviours whose sessions submit a job: each takes at least a job time (plans, a closed loop's cycle). */
const JOB_SUBMITTING: ReadonlySet<BehaviourSpec['behaviour']> = new Set(['run-poll', 'run-webhook', 'run-stream', 'runsync', 'openai-chat']);

export function submitsJob(spec: BehaviourSpec): boolean {
  return JOB_SUBMITTING.has(spec.behaviour);
}

/** Requests of a session's first operation, on average: a multi-turn chat's mean turns (each one request and one job), else 1. */
export function meanTurns(spec: BehaviourSpec): number {
  return spec.behaviour === 'openai-chat' && spec.turns !== undefined ? Math.min(TURNS_MAX, Math.max(1, meanMs(spec.turns))) : 1;
}

/**
 * The least mean time (ms) a session takes, `jobMs` being the mean job time: a closed loop's
 * shortest cycle (plans, connections). A multi-turn chat's: a job per turn and a think time between turns.
 */
export function leastSessionMs(spec: BehaviourSpec, jobMs: number): number {
  if (!submitsJob(spec)) return 0;
  const turns = meanTurns(spec);
  const think = spec.behaviour === 'openai-chat' && spec.thinkTimeMs !== undefined ? meanMs(spec.thinkTimeMs) : 0;
  return turns * jobMs + (turns - 1) * think;
}
