/** The reference model's vocabulary: its endpoint config, the requests it reads and its answers. */
import type { RefLimitsConfig } from './limits.js';

/** A constant, or uniform draws between two bounds (rounded, as the core rounds them). */
export type RefDist = number | { minMs: number; maxMs: number };

/** Continuous batching (`llm.engine`), every field given (the schema's defaults filled in). */
export interface RefEngineConfig {
  decodeMs: number;
  perSequenceMs: number;
  prefillMsPerToken: number;
  overheadMs: number;
  maxNumSeqs: number;
  maxNumBatchedTokens: number;
  /** CPU ms of the API server per request, and its processes. */
  frontEndMs: number;
  apiServerCount: number;
  /** The KV cache's tokens (undefined: unlimited). */
  kvCacheTokens?: number | undefined;
  /** The engine on other GPU types, by type name: each key given replaces the engine's own on a worker placed on that type (llm.engine.byGpu). */
  byGpu?: Record<string, Partial<Omit<RefEngineConfig, 'byGpu'>>>;
  /** Prefix caching (prefix-cache.ts). */
  prefixCaching?: boolean | undefined;
}

export interface RefConfig {
  /** A load-balancing endpoint (`type: load-balancer`): requests go to a worker through the balancer (model-balancer.ts). */
  balancer?: boolean;
  workersMin: number;
  workersMax: number;
  /** Jobs one worker holds at once (workerConcurrency). */
  workerConcurrency: number;
  /** ms from a worker's start (or crash restart) to ready: a constant, or uniform draws. */
  coldStart: RefDist;
  idleTimeoutMs: number;
  /** A start longer than this ends at this point with the worker unhealthy for good (RUNPOD_INIT_TIMEOUT). */
  initTimeoutMs: number;
  scaler: { type: 'QUEUE_DELAY' | 'REQUEST_COUNT'; value: number };
  /** GPU types in priority order (endpoint.gpus, up to 3). Undefined: one type, unnamed, unlimited, and /health has no byGpu. */
  gpus?: string[];
  /** Workers placed on a type at once (a type not listed: unlimited). */
  hostCapacity?: Record<string, number>;
  /** The core's seed: its cold-start draws come from `${seed}/ep/coldstart`. */
  seed: number;
  executionTimeoutMs: number;
  retention: { runMs: number; runsyncMs: number };
  limits: RefLimitsConfig;
  /**
   * The token model; its draws come from `${seed}/ep/llm-tokens`, `llm-ttft` and `llm-gaps`. With
   * `engine` the count alone is drawn (the engine's iterations time the tokens; no ttft, no gaps).
   */
  llm?: { ttftMs: RefDist; interTokenMs: RefDist; outputTokens: RefDist; engine?: undefined } | { outputTokens: RefDist; engine: RefEngineConfig };
}

/** An OpenAI chat completion request, as the model reads it. */
export interface RefChat {
  stream: boolean;
  max_tokens?: number;
  stream_options?: { include_usage: boolean };
  messages: { role: string; content: string }[];
}

export interface RefJobBody {
  input: Record<string, unknown>;
  policy?: { ttl?: number; executionTimeout?: number; lowPriority?: boolean };
}

/** A request as the model sees it; `job` is a submission index (-1: an id never issued). */
export type RefRequest =
  | { op: 'run' | 'runsync'; body: RefJobBody; wait?: number }
  | { op: 'status'; job: number; ttl?: number }
  | { op: 'status-sync'; job: number; wait?: number }
  | { op: 'cancel' | 'retry'; job: number }
  | { op: 'purge-queue' | 'health' }
  | { op: 'openai'; body: RefChat }
  /** A load-balancing endpoint's request: `/ping` (GET) or a custom route (POST, its body echoed); `affinity`: the X-Runpod-Worker-Id sent. */
  | { op: 'lb'; path: '/ping' | '/generate'; body?: Record<string, unknown>; affinity?: string };

export interface RefAnswer {
  status: number;
  body: Record<string, unknown>;
}

/** An answer to a held request, given later: which request (its number), when, what. */
export interface RefLateAnswer extends RefAnswer {
  req: number;
  atMs: number;
}

/** An event the model has set: when, and its order among events of that instant (the model's counter when it was set). */
export interface Planned {
  atMs: number;
  stamp: number;
}
