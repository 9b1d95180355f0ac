/**
 * The differential test's vocabulary: an endpoint config and a sequence of commands (requests and
 * clock advances), as plain JSON so a failing case can be kept as a literal (regressions.ts), and
 * what they mean for the model (`modelConfig`, `requestsOf`) and for the core (`coreConfig`).
 * The arbitraries that generate them are in commands.ts and batching-arbs.ts.
 */
import type { EndpointConfigInput } from '../../src/contract/endpoint-config.js';
import type { RefLimitsConfig } from './limits.js';
import type { RefConfig, RefEngineConfig, RefRequest } from './types.js';

export interface CaseConfig {
  seed: number;
  /** A load-balancing endpoint (lb-arbs.ts): requests by `lb` commands, REQUEST_COUNT at workerConcurrency and a 330 s limit by default. */
  type?: 'load-balancer';
  /** workersMax; also workersMin unless that is given. */
  workers: number;
  workersMin?: number;
  /** Jobs a worker holds at once (endpoint.workerConcurrency). Default 1. */
  workerConcurrency?: number;
  /** ms, or uniform draws between two bounds. Default 0 (warm). */
  coldStartMs?: number | { dist: 'uniform'; minMs: number; maxMs: number };
  idleTimeoutMs?: number;
  /** endpoint.initTimeoutMs: a start longer than this leaves the worker unhealthy. Default 420000. */
  initTimeoutMs?: number;
  scaler?: { type: 'QUEUE_DELAY' | 'REQUEST_COUNT'; value: number };
  executionTimeoutMs?: number;
  retention?: { runMs: number; runsyncMs: number };
  limits?: Partial<RefLimitsConfig>;
  /** A domain-event listener is attached (the core then keeps results in exact, not late, lanes). */
  listen?: boolean;
  /** The token model (`endpoint.llm`): ttft and gaps, or a batching engine (`byGpu`: its keys on other GPU types). */
  llm?:
    | { ttftMs: CaseDist; interTokenMs: CaseDist; outputTokens: CaseDist }
    | { engine: Partial<RefEngineConfig> & { decodeMs: number }; outputTokens: CaseDist };
  /** endpoint.gpus: GPU types in priority order (1 to 3). */
  gpus?: string[];
  /** endpoint.hostCapacity: workers placed at once per type of gpus (a type not listed: unlimited). */
  hostCapacity?: Record<string, number>;
}

/** A constant, or uniform draws between two bounds. */
export type CaseDist = number | { dist: 'uniform'; minMs: number; maxMs: number };
const modelDist = (d: CaseDist) => (typeof d === 'number' ? d : { minMs: d.minMs, maxMs: d.maxMs });

export interface SimSpec {
  durationMs?: number;
  fail?: boolean | string;
  crash?: boolean;
}

export type Cmd =
  | {
      t: 'run';
      sync: boolean;
      sim?: SimSpec;
      policy?: { ttl?: number; executionTimeout?: number; lowPriority?: boolean };
      wait?: number;
      n?: number;
      maxTokens?: number;
      /** `input.prompt` of this many characters (an engine prefills characters / 4 tokens). */
      prompt?: number | string;
    }
  /** `n` OpenAI chat completions (`usage`: stream_options.include_usage; `prompt`: characters of the message, default "hi"). */
  | { t: 'openai'; stream: boolean; maxTokens?: number; usage?: boolean; prompt?: number | string; n?: number }
  | { t: 'status'; pick: number; ttl?: number }
  | { t: 'status-sync'; pick: number; wait?: number }
  | { t: 'cancel'; pick: number }
  /** `failed`: the newest job the model holds as FAILED or TIMED_OUT, if any (else `pick`). */
  | { t: 'retry'; pick: number; failed?: boolean }
  | { t: 'purge' }
  | { t: 'health' }
  | { t: 'advance'; ms: number }
  /**
   * `n` requests to a load-balancing endpoint: `/ping`, or a custom route whose body carries `sim`
   * directives. `affinity`: the X-Runpod-Worker-Id sent back (worker 0: an id of no worker of the
   * endpoint), or `bad`, a malformed one.
   */
  | { t: 'lb'; ping?: boolean; sim?: SimSpec; affinity?: LbAffinity; n?: number };

/** The X-Runpod-Worker-Id of an `lb` command: a worker by number and how strictly, or a malformed header. */
export type LbAffinity = { mode: 'soft' | 'strict' | 'strict-resume'; worker: number } | { mode: 'bad'; header: string };

export interface RefCase {
  config: CaseConfig;
  cmds: Cmd[];
}

const MINUTE = 60_000;
/** A `pick` that names an id never issued. */
export const UNKNOWN_PICK = 99;

/** The schema's engine defaults (contract/llm-config.ts), written out: the model takes no defaults from the core. */
const ENGINE_DEFAULTS = {
  perSequenceMs: 0,
  prefillMsPerToken: 0,
  overheadMs: 0,
  maxNumSeqs: 256,
  maxNumBatchedTokens: 8192,
  frontEndMs: 0,
  apiServerCount: 1,
  prefixCaching: false,
};

export function modelConfig(c: CaseConfig): RefConfig {
  const l = c.limits ?? {};
  const cold = c.coldStartMs ?? 0;
  const llm = c.llm;
  const lb = c.type === 'load-balancer';
  return {
    ...(lb ? { balancer: true } : {}),
    workersMin: c.workersMin ?? c.workers,
    workersMax: c.workers,
    workerConcurrency: c.workerConcurrency ?? 1,
    coldStart: typeof cold === 'number' ? cold : { minMs: cold.minMs, maxMs: cold.maxMs },
    idleTimeoutMs: c.idleTimeoutMs ?? 5000,
    initTimeoutMs: c.initTimeoutMs ?? 420_000,
    // A load-balancing endpoint's defaults: REQUEST_COUNT at workerConcurrency, requests of at most 330 s.
    scaler: c.scaler ?? (lb ? { type: 'REQUEST_COUNT', value: c.workerConcurrency ?? 1 } : { type: 'QUEUE_DELAY', value: 4 }),
    seed: c.seed,
    ...(c.gpus ? { gpus: c.gpus } : {}),
    ...(c.hostCapacity ? { hostCapacity: c.hostCapacity } : {}),
    executionTimeoutMs: c.executionTimeoutMs ?? (lb ? 330_000 : 600_000),
    retention: c.retention ?? { runMs: 30 * MINUTE, runsyncMs: MINUTE },
    limits: {
      window: l.window ?? 'sliding',
      windowMs: l.windowMs ?? 10_000,
      perWorkerRate: l.perWorkerRate,
      queueMin: l.queueMin ?? 50,
      queuePerWorker: l.queuePerWorker ?? 500,
      operations: l.operations ?? {},
    },
    ...(llm === undefined
      ? {}
      : 'engine' in llm
        ? { llm: { outputTokens: modelDist(llm.outputTokens), engine: { ...ENGINE_DEFAULTS, ...llm.engine } } }
        : { llm: { ttftMs: modelDist(llm.ttftMs), interTokenMs: modelDist(llm.interTokenMs), outputTokens: modelDist(llm.outputTokens) } }),
  };
}

/** The core's endpoint config for the same case (harness fills in id, seed and keys). */
export function coreConfig(c: CaseConfig): Partial<EndpointConfigInput> {
  return {
    ...(c.type ? { type: c.type } : {}),
    workersMin: c.workersMin ?? c.workers,
    workersMax: c.workers,
    coldStartMs: c.coldStartMs ?? 0,
    ...(c.workerConcurrency !== undefined ? { workerConcurrency: c.workerConcurrency } : {}),
    ...(c.idleTimeoutMs !== undefined ? { idleTimeoutMs: c.idleTimeoutMs } : {}),
    ...(c.initTimeoutMs !== undefined ? { initTimeoutMs: c.initTimeoutMs } : {}),
    ...(c.scaler ? { scaler: c.scaler } : {}),
    ...(c.executionTimeoutMs !== undefined ? { executionTimeoutMs: c.executionTimeoutMs } : {}),
    ...(c.retention ? { retention: c.retention } : {}),
    ...(c.limits ? { limits: c.limits } : {}),
    ...(c.llm ? { llm: c.llm } : {}),
    ...(c.gpus ? { gpus: c.gpus } : {}),
    ...(c.hostCapacity ? { hostCapacity: c.hostCapacity } : {}),
  };
}

/** The header naming worker `n` of endpoint `ep` (0: another endpoint's worker), bare (soft) or after its mode. */
function affinityHeader(mode: 'soft' | 'strict' | 'strict-resume', n: number): string {
  const id = n === 0 ? 'other-w1' : `ep-w${n}`;
  return mode === 'soft' ? id : `${mode} ${id}`;
}

/** A text of `chars` characters (characters / 4 prompt tokens, rounded up), or the text given. */
const text = (chars: number | string) => (typeof chars === 'string' ? chars : 'x'.repeat(chars));

/** The model requests of one command (`jobs`: how many jobs were accepted so far), none for an advance. */
export function requestsOf(cmd: Cmd, jobs: number, newestFailed: () => number | undefined = () => undefined): RefRequest[] {
  // Small picks name the newest jobs (most likely still known); UNKNOWN_PICK names no job at all.
  const pickJob = (pick: number) => (pick === UNKNOWN_PICK || jobs === 0 ? -1 : jobs - 1 - (pick % jobs));
  switch (cmd.t) {
    case 'openai': {
      const body = {
        messages: [{ role: 'user', content: cmd.prompt !== undefined ? text(cmd.prompt) : 'hi' }],
        stream: cmd.stream,
        ...(cmd.maxTokens !== undefined ? { max_tokens: cmd.maxTokens } : {}),
        ...(cmd.usage ? { stream_options: { include_usage: true } } : {}),
      };
      return Array.from({ length: cmd.n ?? 1 }, () => ({ op: 'openai' as const, body }));
    }
    case 'run': {
      const input = {
        ...(cmd.sim ? { sim: cmd.sim } : { echo: 1 }),
        ...(cmd.maxTokens !== undefined ? { max_tokens: cmd.maxTokens } : {}),
        ...(cmd.prompt !== undefined ? { prompt: text(cmd.prompt) } : {}),
      };
      const body = { input, ...(cmd.policy ? { policy: cmd.policy } : {}) };
      if (cmd.sync) return [{ op: 'runsync', body, ...(cmd.wait !== undefined ? { wait: cmd.wait } : {}) }];
      return Array.from({ length: cmd.n ?? 1 }, () => ({ op: 'run' as const, body }));
    }
    case 'status':
      return [{ op: 'status', job: pickJob(cmd.pick), ...(cmd.ttl !== undefined ? { ttl: cmd.ttl } : {}) }];
    case 'status-sync':
      return [{ op: 'status-sync', job: pickJob(cmd.pick), ...(cmd.wait !== undefined ? { wait: cmd.wait } : {}) }];
    case 'cancel':
      return [{ op: cmd.t, job: pickJob(cmd.pick) }];
    case 'retry':
      return [{ op: cmd.t, job: (cmd.failed ? newestFailed() : undefined) ?? pickJob(cmd.pick) }];
    case 'purge':
      return [{ op: 'purge-queue' }];
    case 'health':
      return [{ op: 'health' }];
    case 'advance':
      return [];
    case 'lb': {
      const a = cmd.affinity;
      const affinity = a === undefined ? {} : { affinity: a.mode === 'bad' ? a.header : affinityHeader(a.mode, a.worker) };
      const one: RefRequest = cmd.ping
        ? { op: 'lb', path: '/ping', ...affinity }
        : { op: 'lb', path: '/generate', body: cmd.sim ? { sim: cmd.sim } : { prompt: 'hi' }, ...affinity };
      return Array.from({ length: cmd.n ?? 1 }, () => one);
    }
  }
}
