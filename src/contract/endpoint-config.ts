/**
 * Simulator configuration: the schema, its defaults (the one place they live) and the frozen,
 * validated form the core trusts. Durations are integer ms or a distribution object.
 */
import { z } from 'zod';
import { deepFreeze } from './deep-freeze.js';
import { durationSchema } from './duration-spec.js';
import {
  BALANCER_REQUEST_MAX_MS,
  ENDPOINT_PRESET_NAMES,
  ENDPOINT_PRESETS,
  ENDPOINT_TYPES,
  INIT_TIMEOUT_DEFAULT_MS,
  withPresetDefaults,
} from './endpoint-presets.js';
import { llmSchema } from './llm-config.js';
import { OPERATIONS } from './operations.js';

const ms = z.number().int().nonnegative();

/** The shortest QUEUE_DELAY wait RunPod takes, in seconds. */
export const QUEUE_DELAY_MIN_S = 0.5;

/** Rate (requests per 10 s window) and concurrency (requests in flight) of one operation. */
const opLimitSchema = z.strictObject({
  rate: z
    .number()
    .int()
    .positive()
    .nullable()
    .optional()
    .meta({
      description:
        "Requests of this operation accepted per limits window (10 s by default); null = unlimited. Default: the operation's documented limit (docs/api.md).",
      examples: [1000, 2000, null],
    }),
  concurrency: z
    .number()
    .int()
    .positive()
    .nullable()
    .optional()
    .meta({
      description: "Requests of this operation in flight at once; null = unlimited. Default: the operation's documented limit (docs/api.md).",
      examples: [200, 400, null],
    }),
});

/**
 * `z.enum` whose output is the option's own string from this file, not the parsed one: a string
 * read from YAML or JSON is not interned, so `===` against a literal in a hot path (the scaler's
 * type on every dispatch) compares characters in a runtime call instead of pointers.
 */
function internedEnum<const T extends readonly [string, ...string[]]>(options: T) {
  return z.enum(options).overwrite((v) => options[options.indexOf(v)] as T[number]);
}

const limitsSchema = z.strictObject({
  enabled: z
    .boolean()
    .default(true)
    .meta({
      description: 'false turns every rate, concurrency and queue-throttling limit off (benchmarks); payload limits still hold. Default: true.',
      examples: [true, false],
    }),
  scale: z
    .number()
    .positive()
    .default(1)
    .meta({ description: 'Multiplies every rate and concurrency limit (e.g. 10 for benchmarks). Default: 1.', examples: [1, 10] }),
  window: internedEnum(['sliding', 'fixed'])
    .default('sliding')
    .meta({ description: 'sliding: no window-long interval ever holds more than the limit; fixed: the counters reset every windowMs. Default: sliding.' }),
  windowMs: ms
    .positive()
    .default(10_000)
    .meta({ description: 'Length in ms of the window rate limits count in. Default: 10000 (10 s).', examples: [10_000, 1000] }),
  perWorkerRate: z
    .number()
    .int()
    .positive()
    .optional()
    .meta({
      description: 'Dynamic rate floor: each operation may take max(its rate, ready workers × this) requests per window. Off when unset.',
      examples: [10, 50],
    }),
  queueMin: ms.default(50).meta({
    description: 'Queue throttling: submissions get a 429 when the queue holds more than this AND more than workersMax × queuePerWorker jobs. Default: 50.',
    examples: [50, 1000],
  }),
  queuePerWorker: ms
    .default(500)
    .meta({ description: 'Queue throttling: queued jobs allowed per worker of workersMax (see queueMin). Default: 500.', examples: [500, 100] }),
  runPayloadBytes: ms
    .default(10 * 1024 * 1024)
    .meta({ description: 'Largest /run request body in bytes; larger ones get a 413. Default: 10485760 (10 MiB).', examples: [10_485_760, 1_048_576] }),
  runsyncPayloadBytes: ms.default(20 * 1024 * 1024).meta({
    description: 'Largest /runsync (and /openai/*) request body in bytes; larger ones get a 413. Default: 20971520 (20 MiB).',
    examples: [20_971_520],
  }),
  operations: z
    .partialRecord(z.enum(OPERATIONS), opLimitSchema)
    .default({})
    .meta({
      description:
        'Per-operation overrides of the documented rate and concurrency limits, keyed by operation (run, runsync, status, status-sync, stream, cancel, retry, purge-queue, health, requests, openai; lb: the requests of a load-balancing endpoint). Default: {} (the documented limits).',
      examples: [{ run: { rate: 2000, concurrency: 400 } }, { status: { rate: null } }],
    }),
});

const faultSchema = z.strictObject({
  kind: internedEnum(['throttled', 'unhealthy']).meta({
    description: 'throttled: no host capacity for the workers (they cannot start); unhealthy: the workers crash-loop on start.',
  }),
  workers: z
    .number()
    .int()
    .positive()
    .meta({ description: 'How many worker slots the fault takes.', examples: [1, 2] }),
  fromMs: ms.default(0).meta({ description: 'Start of the fault window in ms from the start of the run. Default: 0.', examples: [0, 60_000] }),
  toMs: ms.optional().meta({ description: 'End of the fault window in ms from the start of the run; open-ended when unset.', examples: [120_000, 600_000] }),
});

const workloadSchema = z.strictObject({
  failureProbability: z
    .number()
    .min(0)
    .max(1)
    .default(0)
    .meta({ description: 'Probability in [0, 1] that a job ends FAILED. Default: 0.', examples: [0, 0.02] }),
  chunks: z
    .number()
    .int()
    .positive()
    .default(1)
    .meta({ description: 'Streamed partial outputs per job, spread over its run (1 = none). Default: 1.', examples: [1, 20] }),
  outputBytes: ms
    .optional()
    .meta({ description: 'When set, the job output is a string of this many bytes instead of the echo of its input.', examples: [1024, 1_048_576] }),
});

/** A GPU type's name (the price book's, e.g. H100-PRO, A100, L4): a key of hostCapacity and llm.engine.byGpu, a metric label. */
export const gpuNameSchema = z
  .string()
  .min(1)
  .max(32)
  .regex(/^[A-Za-z0-9_.-]+$/, 'letters, digits, "_", "." and "-" only');

/** Most GPU types an endpoint lists (RunPod's). */
export const GPUS_MAX = 3;

/**
 * The endpoint's keys, without the checks across them (`endpointSchema` adds those): the shape
 * other schemas extend (a scenario's endpoint) or read a key's schema from.
 */
export const endpointObjectSchema = z.strictObject({
  id: z
    .string()
    .min(1)
    .max(128)
    .regex(/^[A-Za-z0-9_.-]+$/, 'letters, digits, "_", "." and "-" only')
    .meta({ description: 'Endpoint id, as in /v2/{id}/run: letters, digits, "_", "." and "-". In a scenario, default: ep.', examples: ['ep', 'sdxl-prod'] }),
  type: internedEnum(ENDPOINT_TYPES)
    .default('queue')
    .meta({
      description:
        "queue: RunPod's queue-based endpoint (/run, /runsync, /status, …); load-balancer: a load-balancing endpoint, whose requests go straight to a ready worker's own HTTP server (any path under the endpoint's base; no queue: a request waits at most 2 min for a worker, runs at most 5.5 min), scaled by REQUEST_COUNT on requests in flight. Default: queue.",
      examples: ['queue', 'load-balancer'],
    }),
  preset: internedEnum(ENDPOINT_PRESET_NAMES)
    .default('console')
    .meta({
      description:
        "RunPod's defaults by how the endpoint is created: console (executionTimeoutMs 600000, idleTimeoutMs 5000, FlashBoot on) or rest (the REST API v2: executionTimeoutMs 300000, idleTimeoutMs 10000, FlashBoot off). A key given wins over its preset. FlashBoot is modelled only where flashBoot is set. Default: console.",
      examples: ['console', 'rest'],
    }),
  workersMin: ms.default(0).meta({ description: 'Workers kept running even when idle; at most workersMax. Default: 0.', examples: [0, 1] }),
  workersMax: ms.default(3).meta({ description: 'Most workers running at once. Default: 3.', examples: [3, 10] }),
  workerConcurrency: z
    .number()
    .int()
    .min(1)
    .max(1024)
    .default(1)
    .meta({
      description:
        "Jobs one worker runs at once (the RunPod SDK's concurrency_modifier; RunPod's vLLM worker sets it from MAX_CONCURRENCY, 30 there). A worker bills its time once, whatever it holds. Default: 1.",
      examples: [1, 30],
    }),
  idleTimeoutMs: ms.default(ENDPOINT_PRESETS.console.idleTimeoutMs).meta({
    description: 'A worker idle this long (ms) stops, down to workersMin. Default: 5000 (preset rest: 10000).',
    examples: [5000, 60_000],
  }),
  coldStartMs: durationSchema.default(0).meta({
    description: "Time from a worker's start to ready: whole ms or a distribution object. Default: 0.",
    examples: [0, 15_000, { dist: 'lognormal', medianMs: 8000, p95Ms: 25_000 }],
  }),
  /**
   * Faster restart of a worker that stopped less than `windowMs` ago. Off unless set: with the
   * default cold start of 0 there is nothing to speed up.
   */
  flashBoot: z
    .strictObject({
      startMs: durationSchema.meta({
        description: 'Start-to-ready time (ms or a distribution) of a worker restarted within windowMs of its stop, instead of coldStartMs.',
        examples: [500, { dist: 'uniform', minMs: 300, maxMs: 1500 }],
      }),
      windowMs: ms
        .default(300_000)
        .meta({ description: 'How long (ms) after a worker stops a restart is still a fast one. Default: 300000 (5 min).', examples: [300_000, 60_000] }),
    })
    .optional()
    .meta({ description: 'FlashBoot: a faster restart of a worker that stopped recently. Off when unset.', examples: [{ startMs: 500, windowMs: 300_000 }] }),
  /**
   * RUNPOD_INIT_TIMEOUT: a start (cold, FlashBoot, a restart) longer than this leaves the worker
   * unhealthy from this point on (worker-pool.ts).
   */
  initTimeoutMs: ms
    .positive()
    .default(INIT_TIMEOUT_DEFAULT_MS)
    .meta({
      description:
        "A worker whose start (coldStartMs, a FlashBoot start, a restart) takes longer than this (ms) turns unhealthy at this point and never takes a job (RunPod's RUNPOD_INIT_TIMEOUT). Default: 420000 (7 min).",
      examples: [420_000, 600_000],
    }),
  executionTimeoutMs: ms.default(ENDPOINT_PRESETS.console.executionTimeoutMs).meta({
    description:
      "A job running longer than this (ms) ends TIMED_OUT; a job's policy.executionTimeout overrides it. Default: 600000 (10 min; preset rest: 300000).",
    examples: [600_000, 30_000],
  }),
  scaler: z
    .strictObject({
      type: internedEnum(['QUEUE_DELAY', 'REQUEST_COUNT']).meta({
        description:
          'QUEUE_DELAY: add a worker for each queued job that has waited value seconds; REQUEST_COUNT: aim for ceil((queued + running) / value) workers.',
      }),
      value: z
        .number()
        .positive()
        .meta({ description: 'QUEUE_DELAY: the wait in seconds, from 0.5; REQUEST_COUNT: jobs per worker.', examples: [4, 1] }),
    })
    .refine((s) => s.type !== 'QUEUE_DELAY' || s.value >= QUEUE_DELAY_MIN_S, {
      path: ['value'],
      message: `QUEUE_DELAY takes a wait of at least ${QUEUE_DELAY_MIN_S} s (RunPod's minimum)`,
    })
    .default({ type: 'QUEUE_DELAY', value: 4 })
    .meta({
      description: 'How the endpoint scales workers between workersMin and workersMax. Default: {type: QUEUE_DELAY, value: 4}.',
      examples: [{ type: 'REQUEST_COUNT', value: 1 }],
    }),
  jobDurationMs: durationSchema.default(1000).meta({
    description:
      'Execution time of a job on the built-in worker: whole ms or a distribution object (input.sim.durationMs overrides it per job). Default: 1000.',
    examples: [1000, { dist: 'lognormal', medianMs: 800, p95Ms: 3000 }, { dist: 'exponential', meanMs: 2000 }],
  }),
  workload: workloadSchema.default({ failureProbability: 0, chunks: 1 }).meta({
    description: 'What the built-in worker does with each job: failures, streamed chunks, output size. Default: {failureProbability: 0, chunks: 1}.',
    examples: [{ failureProbability: 0.02, chunks: 10 }],
  }),
  llm: llmSchema.optional(),
  gpus: z
    .array(gpuNameSchema)
    .min(1)
    .max(GPUS_MAX)
    .optional()
    .meta({
      description:
        "GPU types in priority order, up to 3 (RunPod's endpoint setting): a worker starts on the first type with room on the simulated hosts (hostCapacity), else on the next; with no room on any it is throttled until a worker on one of them stops. Each worker is billed at its type's price. Unset: one GPU type, the one --gpu or plan.gpu names for the bill.",
      examples: [['H100-PRO', 'A100'], ['L4']],
    }),
  hostCapacity: z
    .record(gpuNameSchema, ms)
    .optional()
    .meta({
      description:
        'Workers the simulated hosts have room for at once, per GPU type of gpus (a type not listed: unlimited). A worker holds its place from its start to its stop. Default: unlimited on every type.',
      examples: [{ 'H100-PRO': 1 }, { 'H100-PRO': 2, A100: 4 }],
    }),
  faults: z
    .array(faultSchema)
    .default([])
    .meta({
      description: 'Worker faults over time windows: slots without host capacity (throttled) or crash-looping (unhealthy). Default: [].',
      examples: [[{ kind: 'throttled', workers: 2, fromMs: 60_000, toMs: 120_000 }]],
    }),
  limits: limitsSchema
    .default(() => limitsSchema.parse({}))
    .meta({
      description: 'Rate, concurrency, queue and payload limits. Default: the documented limits (docs/api.md).',
      examples: [{ enabled: false }, { scale: 10 }],
    }),
  retention: z
    .strictObject({
      runMs: ms.default(1_800_000).meta({
        description: 'How long (ms) the result of a /run job stays readable after it ends. Default: 1800000 (30 min).',
        examples: [1_800_000, 60_000],
      }),
      runsyncMs: ms
        .default(60_000)
        .meta({ description: 'How long (ms) the result of a /runsync job stays readable after it ends. Default: 60000 (60 s).', examples: [60_000, 10_000] }),
    })
    .default({ runMs: 1_800_000, runsyncMs: 60_000 })
    .meta({
      description: 'How long results stay after a job ends; a later /status answers 404. Default: {runMs: 1800000, runsyncMs: 60000}.',
      examples: [{ runMs: 600_000, runsyncMs: 60_000 }],
    }),
  webhook: z
    .strictObject({
      attempts: z
        .number()
        .int()
        .positive()
        .default(3)
        .meta({ description: 'Delivery attempts in all (1 + retries). Default: 3.', examples: [3, 1] }),
      intervalMs: ms.default(10_000).meta({ description: 'Gap in ms between delivery attempts. Default: 10000.', examples: [10_000, 1000] }),
    })
    .default({ attempts: 3, intervalMs: 10_000 })
    .meta({
      description: "Webhook delivery of a job's result: attempts and the gap between them. Default: {attempts: 3, intervalMs: 10000}.",
      examples: [{ attempts: 5, intervalMs: 2000 }],
    }),
  billing: z
    .strictObject({
      initializing: z
        .boolean()
        .default(false)
        .meta({
          description:
            "Bill a worker's time initializing (its cold start). RunPod's workers page: not billed (since 2026-06-29); its pricing page still bills start time. Default: false.",
          examples: [false, true],
        }),
    })
    .optional()
    .meta({
      description:
        'How workers are billed (the cost model, docs/plan.md "Cost"): from start to stop, rounded up to the second, idle timeout included; throttled and unhealthy time never. Default: {initializing: false}.',
      examples: [{ initializing: true }],
    }),
});

/** The checks across an endpoint's GPU keys: gpus distinct; hostCapacity and llm.engine.byGpu name only types of gpus. */
export function checkGpuKeys(e: Pick<EndpointConfig, 'gpus' | 'hostCapacity' | 'llm'>, ctx: z.RefinementCtx): void {
  const gpus = e.gpus ?? [];
  gpus.forEach((g, i) => {
    if (gpus.indexOf(g) !== i) ctx.addIssue({ code: 'custom', path: ['gpus', i], message: `"${g}" is listed twice` });
  });
  const listed = gpus.length ? `one of gpus (${gpus.join(', ')})` : 'a GPU type of gpus, which is not set';
  for (const g of Object.keys(e.hostCapacity ?? {}))
    if (!gpus.includes(g)) ctx.addIssue({ code: 'custom', path: ['hostCapacity', g], message: `not ${listed}` });
  for (const g of Object.keys(e.llm?.engine?.byGpu ?? {}))
    if (!gpus.includes(g)) ctx.addIssue({ code: 'custom', path: ['llm', 'engine', 'byGpu', g], message: `not ${listed}` });
}

/**
 * The checks of a load-balancing endpoint: it scales by REQUEST_COUNT (a QUEUE_DELAY scaler needs
 * a queue, which it has not), and a request runs at most 5.5 min (RunPod's limit).
 */
export function checkBalancerKeys(e: Pick<EndpointConfig, 'type' | 'scaler' | 'executionTimeoutMs'>, ctx: z.RefinementCtx): void {
  if (e.type !== 'load-balancer') return;
  if (e.scaler.type !== 'REQUEST_COUNT')
    ctx.addIssue({
      code: 'custom',
      path: ['scaler', 'type'],
      message: 'a load-balancing endpoint scales by REQUEST_COUNT (requests in flight per worker): it has no queue for QUEUE_DELAY to measure',
    });
  if (e.executionTimeoutMs > BALANCER_REQUEST_MAX_MS)
    ctx.addIssue({
      code: 'custom',
      path: ['executionTimeoutMs'],
      message: `a load-balancing endpoint's request runs at most ${BALANCER_REQUEST_MAX_MS} ms (5.5 min, RunPod's limit)`,
    });
}

/** Both checks across an endpoint's keys (a scenario's endpoint schema adds them to its own shape). */
export function checkEndpointKeys(e: EndpointConfig, ctx: z.RefinementCtx): void {
  checkGpuKeys(e, ctx);
  checkBalancerKeys(e, ctx);
}

export const endpointSchema = endpointObjectSchema.superRefine(checkEndpointKeys);

export const simConfigSchema = z.strictObject({
  seed: z.union([z.number().int(), z.string()]).default(1),
  apiKeys: z.array(z.string().min(1)).default([]),
  endpoints: z
    .array(endpointSchema)
    .min(1)
    .default(() => [endpointSchema.parse({ id: 'ep' })]),
});

export type EndpointConfig = z.infer<typeof endpointSchema>;
export type EndpointConfigInput = z.input<typeof endpointSchema>;
export type SimConfig = z.infer<typeof simConfigSchema>;
export type SimConfigInput = z.input<typeof simConfigSchema>;
export type FaultConfig = z.infer<typeof faultSchema>;

export interface ConfigIssue {
  /** Dotted field path, e.g. `endpoints.0.scaler.value`. */
  path: string;
  message: string;
}

/** Validates a whole config in one pass; every issue comes back with its field path. */
export function parseSimConfig(input: unknown): { ok: true; config: SimConfig } | { ok: false; issues: ConfigIssue[] } {
  const r = simConfigSchema.safeParse(withEndpointPresets(input ?? {}));
  if (!r.success) {
    return { ok: false, issues: r.error.issues.map((i) => ({ path: issuePath(i), message: i.message })) };
  }
  const ids = new Set<string>();
  const issues: ConfigIssue[] = [];
  r.data.endpoints.forEach((e, n) => {
    if (ids.has(e.id)) issues.push({ path: `endpoints.${n}.id`, message: `duplicate endpoint id "${e.id}"` });
    if (e.workersMin > e.workersMax) issues.push({ path: `endpoints.${n}.workersMin`, message: 'must be <= workersMax' });
    ids.add(e.id);
  });
  return issues.length ? { ok: false, issues } : { ok: true, config: deepFreeze(r.data) };
}

/** A raw serve config with each endpoint's preset filled in (endpoint-presets.ts). */
function withEndpointPresets(input: unknown): unknown {
  if (typeof input !== 'object' || input === null || !('endpoints' in input) || !Array.isArray(input.endpoints)) return input;
  return { ...input, endpoints: input.endpoints.map(withPresetDefaults) };
}

function issuePath(i: z.core.$ZodIssue): string {
  const base = i.path.map(String);
  // zod reports an unknown key on the parent object; name the key itself.
  if (i.code === 'unrecognized_keys') return [...base, i.keys.join(',')].join('.');
  return base.join('.');
}

/** A full endpoint config from a partial one (tests, demos). Throws on invalid input: code, not users. */
export function endpointConfig(input: EndpointConfigInput): EndpointConfig {
  return endpointSchema.parse(withPresetDefaults(input));
}
