/** Client behaviours by name (`behaviour` key). A new one is one file and one line here. */
import { z } from 'zod';
import { health } from './health.js';
import { openaiChat } from './openai-chat.js';
import { purgeQueue } from './purge-queue.js';
import { runPoll } from './run-poll.js';
import { runStream } from './run-stream.js';
import { runWebhook } from './run-webhook.js';
import { runsync } from './runsync.js';
import { httpRequest } from './http.js';
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
  http: httpRequest,
} as const;

export const behaviourSchema = z.discriminatedUnion('behaviour', [
  runPoll.schema,
  runWebhook.schema,
  runStream.schema,
  runsync.schema,
  health.schema,
  purgeQueue.schema,
  openaiChat.schema,
  httpRequest.schema,
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

/** The operation a session of `spec` starts with; `balancer`: on a load-balancing endpoint (`lb`). */
export function behaviourOperation(spec: BehaviourSpec, balancer = false): Operation {
  return kindOf(spec).operation(spec, balancer);
}

/**
 * Behaviours that need a queue endpoint's routes (`/run`, `/runsync`, `/status`, `/stream`,
 * `/purge-queue`): a load-balancing endpoint has none. `http` needs a load-balancing endpoint;
 * `openai-chat` and `health` take either.
 */
export const QUEUE_BEHAVIOURS: ReadonlySet<BehaviourSpec['behaviour']> = new Set(['run-poll', 'run-webhook', 'run-stream', 'runsync', 'purge-queue']);

/** Why a flow of `spec` cannot run against an endpoint of `type`; undefined when it can. */
export function behaviourRefusal(spec: BehaviourSpec, type: 'queue' | 'load-balancer'): string | undefined {
  if (type === 'load-balancer' && QUEUE_BEHAVIOURS.has(spec.behaviour))
    return `behaviour ${spec.behaviour} needs a queue endpoint, but endpoint.type is load-balancer: a load-balancing endpoint has no /run, /runsync, /status, /stream or /purge-queue (its requests go to the worker: use openai-chat or http)`;
  if (type === 'queue' && spec.behaviour === 'http')
    return 'behaviour http needs a load-balancing endpoint (endpoint.type: load-balancer); a queue endpoint takes jobs (run-poll, runsync, …)';
  return undefined;
}

/** Behaviours whose sessions submit a job: each takes at least a job time (plans, a closed loop's cycle). */
const JOB_SUBMITTING: ReadonlySet<BehaviourSpec['behaviour']> = new Set(['run-poll', 'run-webhook', 'run-stream', 'runsync', 'openai-chat', 'http']);

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
