/**
 * A client behaviour: what one session (one arrival of a flow) does — submit and poll, wait for
 * a webhook, drain a stream, … — through the shared Client. Behaviours are callbacks on the
 * target's clock, so the same code runs in virtual time and in wall time.
 */
import type { z } from 'zod';
import type { Operation } from '../../contract/operations.js';
import type { RandomStream } from '../../lib/random.js';
import type { TraceRequest } from '../arrivals/types.js';
import type { AnswerCallback, Client, Exchange } from '../client.js';
import type { Recorder } from '../record/recorder.js';
import type { FlowStreams } from '../record/stream-metrics.js';
import type { FlowTurns } from '../record/flow-turns.js';
import type { Target, TargetRequest } from '../targets/target.js';
import type { CallOptions } from '../client.js';

/** One arrival's run of a behaviour. `end` is called exactly once; afterwards answers are ignored. */
export interface Session {
  readonly seq: number;
  readonly intendedMs: number;
  /** Its prompt and answer length, from a token trace's row (`replay` with `format`); else undefined. */
  readonly request: TraceRequest | undefined;
  /** When its first request went out (the client sets it; until then, `intendedMs`). */
  sentMs: number;
  done: boolean;
  /** True until the first request goes out (that one counts as the arrival). */
  first: boolean;
  /** The API accepted this session's job (counted once in `jobs.accepted`; see acceptJob). */
  hasJob: boolean;
  /**
   * The recorder's order mark (JobLedger.mark) when the job was last known queued: its
   * submission, an IN_QUEUE status, a /retry. Infinity once seen running. Tells a purge from an
   * expiry when the job answers 404.
   */
  queuedMark: number;
  end(outcome: string): void;
}

/** A job a session follows, once the API accepted it. */
export interface JobCtx {
  id: string;
  /** When the submission was answered (client clock). */
  acceptedAtMs: number;
  retriesLeft: number;
}

/** What a behaviour gets from the run loop. */
export interface BehaviourEnv {
  flow: string;
  client: Client;
  target: Target;
  rec: Recorder;
  /** This flow's client stream (jitter, cancel draws): `client/<flow>`. */
  rng: RandomStream;
  /** Routes webhook deliveries of the built-in receiver to the session waiting for that job. */
  webhooks: Map<string, (attempt: number, ok: boolean, lastAttempt: boolean, body: Record<string, unknown>) => void>;
  /** This flow's stream metrics: only a streaming flow has them (registry.ts isStreaming). */
  streams?: FlowStreams;
  /** This flow's sessions of turns: only a multi-turn flow has them (registry.ts hasTurns). */
  turns?: FlowTurns;
  /** The endpoint is a load-balancing one (`endpoint.type: load-balancer`): requests go under its base (TargetRequest.balancer). */
  balancer?: boolean;
}

export interface BehaviourKind<S extends z.ZodType = z.ZodType> {
  readonly schema: S;
  /** The operation a session starts with (reports, plans); `balancer`: on a load-balancing endpoint. */
  operation(spec: z.infer<S>, balancer: boolean): Operation;
  create(spec: z.infer<S>, env: BehaviourEnv): (s: Session) => void;
}

export function defineBehaviour<S extends z.ZodType>(kind: BehaviourKind<S>): BehaviourKind<S> {
  return kind;
}

/**
 * Sends through the client; the answer is dropped if the session already ended (checked by the
 * client: no closure per call). `x`: the caller's exchange to reuse (one request out at a time).
 */
export function call(env: BehaviourEnv, s: Session, o: CallOptions, req: TargetRequest & { bodyBytes?: number }, cb: AnswerCallback, x?: Exchange): void {
  const arrival = s.first;
  s.first = false;
  env.client.call(req, o, arrival, cb, s, x);
}
